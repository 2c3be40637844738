//===- OuterWalk.h - The outer dims of a row-major walk ---------*- C++ -*-===//
//
// The copy and reduction kernels walk a tensor one run of its innermost dim
// at a time; between runs they step a row-major index over the outer dims
// and keep an offset into each tensor they read or write in step with it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_OUTERWALK_H
#define TESSEL_RUNTIME_EXECUTOR_OUTERWALK_H

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace tessel::runtime {

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
