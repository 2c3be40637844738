//===- Reshape.h - which splits a reshape carries over ----------*- C++ -*-===//
//
// A reshape reinterprets the elements of its input, in row-major order, as
// the result's dimensions. Its dimensions fall into groups: runs of input
// and result dimensions that hold the same elements, such as
// [heads:8, head_dim:64] and [hidden:512]. A split of a group's outermost
// dimension cuts the group's elements into contiguous runs, so where both
// sides cut them into the same runs, the reshape of every rank's block is
// the rank's block of the result and no data moves.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LAYOUTS_RESHAPE_H
#define TESSEL_LAYOUTS_RESHAPE_H

#include <cstdint>
#include <optional>
#include <vector>

namespace tessel::layout {

/// Input dimensions [inputBegin, inputEnd) and result dimensions
/// [resultBegin, resultEnd) of a reshape that hold the same elements.
struct ReshapeGroup {
  size_t inputBegin, inputEnd, resultBegin, resultEnd;
};

/// Returns the smallest groups of a reshape from shape `from` to shape `to`,
/// in order: [2, 3, 4] -> [6, 2, 2] gives {0, 2} -> {0, 1} and {2, 3} ->
/// {1, 3}. Dimensions of size 1 after the last whole group form groups with
/// nothing on the other side. Returns std::nullopt when the element counts
/// differ or a size is below 1.
std::optional<std::vector<ReshapeGroup>>
reshapeGroups(const std::vector<int64_t> &from, const std::vector<int64_t> &to);

/// Returns the input dimension whose split into `blocks` blocks gives every
/// rank, after a local reshape, its block of result dimension `resultDim`
/// split into `blocks` blocks; std::nullopt when there is none and the
/// split needs the group's data moved.
///
/// That input dimension is the major (outermost, not of size 1) dimension
/// of the group, and `resultDim` must be the major dimension of its group.
/// When both have one size the dimension is carried over, and blocks that
/// pad (ceil(n / blocks) elements) line up too: [a:10] -> [b:10] over 3.
/// Otherwise both sizes must divide into `blocks`: [heads:8, head_dim:64]
/// -> [hidden:512] over 4 keeps heads' blocks of 2 as blocks of 128 of
/// hidden, but [a:2, b:8] -> [c:16] over 4 would cut rows of b in half.
std::optional<size_t> splitSourceOfReshape(const std::vector<int64_t> &from,
                                           const std::vector<int64_t> &to,
                                           size_t resultDim, int64_t blocks);

} // namespace tessel::layout

#endif // TESSEL_LAYOUTS_RESHAPE_H
