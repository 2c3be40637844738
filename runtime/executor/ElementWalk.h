//===- ElementWalk.h - Operands read by name in a result's walk -*- C++ -*-===//
//
// Element-wise kernels walk their result in row-major order and read each
// operand, broadcast by name, at the element that the result's index
// names: an operand's stride along each result dim, 0 where it lacks the
// dim. The f32 loops (FastElementwise.cpp) and those of the other element
// types (TypedElementwise.cpp) share the walk.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_ELEMENTWALK_H
#define TESSEL_RUNTIME_EXECUTOR_ELEMENTWALK_H

#include "executor/Descriptor.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace tessel::runtime {

/// How an operand is read while the result is walked in row-major order:
/// its stride along each result dim (0 where it is broadcast), and whether
/// it is simply the result's own layout or a scalar.
struct OperandWalk {
  std::vector<int64_t> strides;
  bool sameLayout = false;
  bool scalar = false;

  OperandWalk(const TensorType &operand, const TensorType &result) {
    std::vector<int64_t> own = ref::rowMajorStrides(operand.shape);
    for (const std::string &dim : result.dims) {
      auto it = std::find(operand.dims.begin(), operand.dims.end(), dim);
      strides.push_back(
          it == operand.dims.end() ? 0 : own[it - operand.dims.begin()]);
    }
    sameLayout = operand.dims == result.dims;
    scalar = operand.numElements() == 1;
  }
};

/// Calls `visit(k, offsets)` for every element k of a result of `shape`, in
/// row-major order, with the offset of the element each operand's walk
/// reads for it. Shapes that need no index (every operand in the result's
/// layout or a scalar) step by one or zero.
template <size_t N, typename Visit>
void forEachElement(const std::vector<int64_t> &shape,
                    const std::array<OperandWalk, N> &walks, Visit &&visit) {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  std::array<int64_t, N> offsets{};
  if (std::all_of(walks.begin(), walks.end(), [](const OperandWalk &w) {
        return w.sameLayout || w.scalar;
      })) {
    // Steps of 1 or 0, set apart so that the compiler can vectorize.
    std::array<int64_t, N> steps;
    for (size_t o = 0; o < N; ++o)
      steps[o] = walks[o].scalar ? 0 : 1;
    for (int64_t k = 0; k < count; ++k) {
      for (size_t o = 0; o < N; ++o)
        offsets[o] = k * steps[o];
      visit(k, offsets);
    }
    return;
  }
  if (count == 0)
    return;
  if (shape.empty()) {
    visit(0, offsets);
    return;
  }
  // One run of the innermost dim at a time, each operand stepping by its
  // stride along it; the outer index steps once a run (stepping every
  // dim's index per element cost about 2 ns an element: a masked
  // attention score's select of 39200 elements took 80 us).
  int inner = static_cast<int>(shape.size()) - 1;
  int64_t run = shape[inner];
  std::array<int64_t, N> innerStrides, starts{};
  for (size_t o = 0; o < N; ++o)
    innerStrides[o] = walks[o].strides[inner];
  std::vector<int64_t> index(shape.size(), 0);
  for (int64_t k = 0; k < count; k += run) {
    for (int64_t i = 0; i < run; ++i) {
      for (size_t o = 0; o < N; ++o)
        offsets[o] = starts[o] + i * innerStrides[o];
      visit(k + i, offsets);
    }
    // Steps the row-major index of the dims outside the run, and every
    // operand's offset of the run's start.
    for (int d = inner - 1; d >= 0; --d) {
      for (size_t o = 0; o < N; ++o)
        starts[o] += walks[o].strides[d];
      if (++index[d] < shape[d])
        break;
      for (size_t o = 0; o < N; ++o)
        starts[o] -= walks[o].strides[d] * shape[d];
      index[d] = 0;
    }
  }
}

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_ELEMENTWALK_H
