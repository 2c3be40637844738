//===- Sharding.h - layout maths of one tensor on a mesh --------*- C++ -*-===//
//
// A tensor's layout says, per dimension, which mesh axes split it. From that
// follow the shape of every rank's block, where the block starts in the
// global tensor, how many bytes a rank holds, and which ranks hold copies of
// the same block.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LAYOUTS_SHARDING_H
#define TESSEL_LAYOUTS_SHARDING_H

#include "layouts/CheckedArithmetic.h"
#include "layouts/Mesh.h"

#include <string>
#include <vector>

namespace tessel::layout {

/// The mesh axes that split one dimension, outermost first; empty when the
/// dimension is replicated.
using AxisList = std::vector<std::string>;

/// A tensor's dimensions with their global sizes, and the axes splitting
/// each.
struct TensorLayout {
  std::vector<std::string> dims;
  std::vector<int64_t> shape;
  std::vector<AxisList> axes;
};

/// Checks that the layout describes every dimension once (as many names,
/// sizes and axis lists, no size below 0), that every axis exists, that no
/// mesh axis splits two dimensions (or one twice), and, unless
/// `padUneven`, that every split divides its dimension. On failure returns
/// false with a message that names the dimension and the axis.
///
/// The functions below assume a layout that passes this check. A split that
/// does not divide its dimension gives every block ceil(size / blocks)
/// elements: the blocks start at multiples of that, and the last ones end
/// past the dimension (padding, which holds zeros).
bool checkLayout(const Mesh &mesh, const TensorLayout &layout,
                 std::string &error, bool padUneven = false);

/// Returns the number of blocks a dimension split over `axes` is cut into.
int64_t splitCount(const Mesh &mesh, const AxisList &axes);

/// Returns the elements of each block of a dimension of `size` split into
/// `blocks`: ceil(size / blocks).
inline int64_t blockSize(int64_t size, int64_t blocks) {
  return blocks > 0 ? ceilDiv(size, blocks) : size;
}

/// Returns the shape of the block each rank holds (padding included).
std::vector<int64_t> localShape(const Mesh &mesh, const TensorLayout &layout);

/// Returns where `rank`'s block starts in the global tensor, per dimension.
/// Along a dimension split over [a0, a1], the block index is the rank's
/// position in its group over [a0, a1] (a0 outermost).
std::vector<int64_t> shardOffset(const Mesh &mesh, const TensorLayout &layout,
                                 int64_t rank);

/// Returns the bytes of one rank's block, or std::nullopt if they do not
/// fit int64_t.
std::optional<int64_t> bytesPerRank(const Mesh &mesh,
                                    const TensorLayout &layout,
                                    int64_t elementBytes);

/// Returns the ranks that hold the same block as `rank` (those that differ
/// only on the axes the tensor does not use), in group order.
std::vector<int64_t> replicaGroup(const Mesh &mesh, const TensorLayout &layout,
                                  int64_t rank);

} // namespace tessel::layout

#endif // TESSEL_LAYOUTS_SHARDING_H
