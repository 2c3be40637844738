//===- OuterWalk.h - The dims of a row-major walk ---------------*- C++ -*-===//
//
// The copy, reduction and fused kernels walk a tensor one run of its
// innermost dim at a time. Before, they merge the dims that are one run of
// memory in every tensor they touch (MergedDims), so that a dense tensor is
// one long run; between runs they step a row-major index over the outer
// dims and keep an offset into each tensor in step with it (OuterWalk).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_OUTERWALK_H
#define TESSEL_RUNTIME_EXECUTOR_OUTERWALK_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessel::runtime {

/// A walk's dims with each one's stride in N tensors (in elements, 0 where
/// a tensor is broadcast along it): dims of size 1 are left out, and a dim
/// merges into the one before it where every tensor holds the two as one
/// run (the outer stride is the inner one's times the inner size).
template <size_t N> struct MergedDims {
  std::vector<int64_t> sizes;
  std::array<std::vector<int64_t>, N> strides;

  void add(int64_t size, const std::array<int64_t, N> &dimStrides) {
    if (size == 1)
      return;
    bool merges = !sizes.empty();
    for (size_t t = 0; t < N && merges; ++t)
      merges = strides[t].back() == dimStrides[t] * size;
    if (merges) {
      sizes.back() *= size;
      for (size_t t = 0; t < N; ++t)
        strides[t].back() = dimStrides[t];
      return;
    }
    sizes.push_back(size);
    for (size_t t = 0; t < N; ++t)
      strides[t].push_back(dimStrides[t]);
  }
};

/// Steps a row-major index over the first `outerDims` dims of `sizes`,
/// with `(*strides[t])[d]` the step of tensor t's offset along dim d. The
/// sizes and strides are the kernel's, kept for its lifetime; a walk is
/// made per call.
template <size_t N> class OuterWalk {
public:
  OuterWalk(const std::vector<int64_t> &sizes, size_t outerDims,
            std::array<const std::vector<int64_t> *, N> strides)
      : sizes_(sizes), strides_(strides), index_(outerDims, 0) {}

  /// Each tensor's offset at the current outer index.
  int64_t offset(size_t tensor) const { return offsets_[tensor]; }

  /// Moves to the outer index of row-major position `position` (0 is the
  /// first), so that a thread can walk a part of the outer dims.
  void seek(int64_t position) {
    offsets_.fill(0);
    for (int d = static_cast<int>(index_.size()) - 1; d >= 0; --d) {
      index_[d] = position % sizes_[d];
      position /= sizes_[d];
      for (size_t t = 0; t < N; ++t)
        offsets_[t] += index_[d] * (*strides_[t])[d];
    }
  }

  /// Moves to the next outer index; false after the last.
  bool next() {
    for (int d = static_cast<int>(index_.size()) - 1; d >= 0; --d) {
      for (size_t t = 0; t < N; ++t)
        offsets_[t] += (*strides_[t])[d];
      if (++index_[d] < sizes_[d])
        return true;
      for (size_t t = 0; t < N; ++t)
        offsets_[t] -= (*strides_[t])[d] * sizes_[d];
      index_[d] = 0;
    }
    return false;
  }

private:
  const std::vector<int64_t> &sizes_;
  std::array<const std::vector<int64_t> *, N> strides_;
  std::vector<int64_t> index_;
  std::array<int64_t, N> offsets_{};
};

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_OUTERWALK_H
