//===- PreparedKernel.h - oneDNN primitives per call site -------*- C++ -*-===//
//
// The kernels other than einsum take their shapes once, when a call site is
// prepared, and build their oneDNN primitives (and the reorders around
// them) then; each later run only moves data. This is their C++ interface
// for the executor: it names no oneDNN type, so that only
// TesselRuntimeKernels compiles against oneDNN.
//
// Tensors are described to the kernels as oneDNN sees them: the primitive's
// logical dims in its own order (N, C, H, W for a convolution's source) and
// the stride of each in the caller's row-major buffer. The caller maps its
// named dims to these; the kernels never see names.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_PREPAREDKERNEL_H
#define TESSEL_RUNTIME_KERNELS_PREPAREDKERNEL_H

#include "tessel/runtime/kernels.h"

#include <cstdint>
#include <vector>

namespace tessel::runtime {

/// A tensor in the caller's buffer: its dims in the primitive's order and
/// the stride of each, in elements. A size-1 dim's stride is never used.
struct StridedTensor {
  std::vector<int64_t> dims;
  std::vector<int64_t> strides;
  tessel_element_type_t type = TESSEL_ELEMENT_TYPE_F32;

  /// A dense row-major tensor of `shape`.
  static StridedTensor rowMajor(const std::vector<int64_t> &shape,
                                tessel_element_type_t type);
};

/// A oneDNN primitive built for fixed shapes, with whatever reorders bring
/// the caller's layouts to the ones it prefers.
class PreparedKernel {
public:
  virtual ~PreparedKernel() = default;

  /// Runs on `inputs` (in the order the preparing function documents) into
  /// `output`, on the stream of `kernels`. Runs of one prepared kernel are
  /// serialised (it owns the reorder buffers); different ones may run on
  /// different threads. A failure returns its status and sets
  /// tessel_last_error_message().
  virtual tessel_status_t run(tessel_kernels_t &kernels,
                              const void *const *inputs, void *output) = 0;
};

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_PREPAREDKERNEL_H
