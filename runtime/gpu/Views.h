//===- Views.h - Descriptor types as walks and strides ----------*- C++ -*-===//
//
// The op builders' side of Launch.h: a descriptor's tensor types (named
// dims, local sizes) become walks and per-dim strides, matched by dim name
// the way the reference kernels broadcast and transpose. Worked out once
// per call site. A type with more than kMaxDims dims has no walk, and its
// op runs on the host instead.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_VIEWS_H
#define TESSEL_RUNTIME_GPU_VIEWS_H

#include "gpu/Launch.h"

#include "executor/Descriptor.h"

#include <optional>
#include <string>
#include <vector>

namespace tessel::runtime::gpu {

DType dtypeOf(ref::ElementType type);

/// Row-major strides of `shape`, in elements.
std::vector<int64_t> rowMajorStrides(const std::vector<int64_t> &shape);

/// A walk over `shape`; none when it has more than kMaxDims dims.
std::optional<Walk> walkOver(const std::vector<int64_t> &shape);

/// For each of `dims`, the stride of the same-named dim of `type`, or 0
/// when `type` lacks it (broadcast); none with more than kMaxDims dims.
std::optional<Strides> stridesByName(const TensorType &type,
                                     const std::vector<std::string> &dims);

/// `type`'s dims and sizes reordered into `order` (dim names that must all
/// be dims of `type`).
TensorType reordered(const TensorType &type,
                     const std::vector<std::string> &order);

/// The sizes of the named dims of `type`, in the order named.
std::vector<int64_t> sizesOf(const TensorType &type,
                             const std::vector<std::string> &dims);

/// The names of `type`'s dims that are not in `exclude`, in type's order.
std::vector<std::string> dimsWithout(const TensorType &type,
                                     const std::vector<std::string> &exclude);

// Fibers (Launch.h) of the ops that work along some dims of a tensor; none
// when a walk would have more than kMaxDims dims.

/// reduce: one fiber per result element (outer: the result's dims, in its
/// order), over the operand's dims that the result lacks.
std::optional<Fibers> reductionFibers(const TensorType &in,
                                      const TensorType &result);
/// softmax, log_softmax, layer_norm: fibers over `inner` (the rest are
/// outer, in in's order), the result laid out like the operand.
std::optional<Fibers> sameLayoutFibers(const TensorType &in,
                                       const std::vector<std::string> &inner);
/// softmax_cross_entropy: one fiber per result element over the logits'
/// class dim, with the labels read through outerAux.
std::optional<Fibers> crossEntropyFibers(const TensorType &logits,
                                         const TensorType &labels,
                                         const TensorType &result,
                                         const std::string &classDim);

/// A strided copy of an operand into the result: each element of the walk
/// read `srcBase` elements into the operand through `src` and written
/// `dstBase` elements into the result through `dst`. The data-movement
/// ops (broadcast, transpose, slice, pad, concat) are one each.
struct Placement {
  int elementBytes = 0;
  Walk walk;
  Strides dst, src;
  int64_t dstBase = 0, srcBase = 0;

  void run(cudaStream_t stream, const void *from, void *to) const;
};

/// broadcast and transpose: each result element from the operand element
/// with the same indices on same-named dims.
std::optional<Placement> byName(const TensorType &operand,
                                const TensorType &result);
/// slice: the result-sized window of the operand at `starts` along `dims`.
std::optional<Placement> sliceOf(const TensorType &operand,
                                 const TensorType &result,
                                 const std::vector<std::string> &dims,
                                 const std::vector<int64_t> &starts);
/// pad and concat: the whole operand into the result, `offsets` elements
/// along the named dims (none for a negative offset).
std::optional<Placement> placeInto(const TensorType &operand,
                                   const TensorType &result,
                                   const std::vector<std::string> &dims,
                                   const std::vector<int64_t> &offsets);

/// A copy of `from` laid out row-major in the dim order of `to` (the same
/// dims, any order): what a transpose does. Makes the walk once; returns
/// false when the types have too many dims.
class Permute {
public:
  bool plan(const TensorType &from, const TensorType &to);
  /// Whether the layouts are equal, so the bytes can be used as they are.
  bool identity() const { return same; }
  void run(cudaStream_t stream, const void *src, void *dst) const;

  // What run() launches, for tests of the planning.
  const Walk &walk() const { return walkOverTo; }
  const Strides &source() const { return srcStrides; }
  const Strides &destination() const { return dstStrides; }

private:
  bool same = true;
  int elementBytes = 0;
  Walk walkOverTo;
  Strides srcStrides, dstStrides;
};

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_VIEWS_H
