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

/// A copy of `from` laid out row-major in the dim order of `to` (the same
/// dims, any order): what a transpose does. Makes the walk once; returns
/// false when the types have too many dims.
class Permute {
public:
  bool plan(const TensorType &from, const TensorType &to);
  /// Whether the layouts are equal, so the bytes can be used as they are.
  bool identity() const { return same; }
  void run(cudaStream_t stream, const void *src, void *dst) const;

private:
  bool same = true;
  int elementBytes = 0;
  Walk walk;
  Strides srcStrides, dstStrides;
};

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_VIEWS_H
