//===- Resharding.h - moving a block from one layout to another --*- C++
//-*-===//
//
// A catalogue of small resharding steps, each a mesh-level op with the
// layouts before and after, and the planner that composes them: every
// dimension whose split changes is gathered over the axes it loses and
// sliced over the axes it gains, keeping the common leading axes.
// tessel-optimize-comm turns a gather along one dimension sliced along
// another into an all_to_all.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_PASSES_RESHARDING_H
#define TESSEL_PASSES_RESHARDING_H

#include "dialect/TesselDialect.h"

#include "mlir/IR/Builders.h"

namespace mlir::tessel {

/// Returns the type of one rank's block of `global` on `mesh`: every split
/// dimension divided by the size of its axes, and no layout.
NamedTensorType localTypeOf(NamedTensorType global, MeshAttr mesh);

/// Returns `global` with `layout` restricted to the dimensions it has.
NamedTensorType withLayoutOn(NamedTensorType global, LayoutAttr layout);

/// Returns the axes that split `dim` under `layout` (none for a null one).
SmallVector<StringAttr> axesOf(LayoutAttr layout, StringRef dim);

/// Returns `type` laid out as `rest` on its other dimensions and with `dim`
/// split over `axes`, or std::nullopt when one of `axes` already splits a
/// dimension of `rest`.
std::optional<NamedTensorType> withSplitAdded(NamedTensorType type,
                                              LayoutAttr rest, StringRef dim,
                                              ArrayRef<StringAttr> axes);

/// Returns the dimensions of `global` whose split does not divide them, so
/// that their last blocks are padded.
SmallVector<StringRef> paddedDimsOf(NamedTensorType global, MeshAttr mesh);

/// Returns the layout that replicates every dimension of `type` named in
/// `dims` and keeps the others as they are.
LayoutAttr withoutSplitsOf(NamedTensorType type, ArrayRef<StringRef> dims);

/// Builds resharding steps at the builder's insertion point.
class Resharder {
public:
  Resharder(OpBuilder &builder, Location loc, MeshAttr mesh)
      : builder(builder), loc(loc), mesh(mesh) {}

  /// [partial sum over axes] -> [complete]: all_reduce.
  Value completePartialSum(Value block, ArrayRef<StringAttr> axes);

  /// [dim split over axes] -> [dim whole]: all_gather along dim.
  Value gatherDim(Value block, StringRef dim, ArrayRef<StringAttr> axes);

  /// [dim whole] -> [dim split over axes]: shard_slice, no communication.
  Value sliceDim(Value block, StringRef dim, ArrayRef<StringAttr> axes);

  /// [dim split over `from`] -> [dim split over `to`], two axes of the same
  /// size: collective_permute over both, each rank receiving the block its
  /// coordinate on `to` names from the rank with the two coordinates
  /// swapped.
  Value permuteAxis(Value block, StringAttr from, StringAttr to);

  /// Sets the positions of `block` (of a tensor of global type `global`)
  /// that lie past the end of a padded split dimension (a pad_uneven
  /// layout) to `fill`; returns `block` when no split of `global` pads.
  Value maskPadding(Value block, NamedTensorType global, double fill);

  /// Moves `block`, the local block of a tensor of global type `from`, to
  /// the layout of `to` (same dimensions): all gathers first (over the axes
  /// after those the two splits of a dimension share), so that no axis is
  /// in use twice in between, then all slices.
  Value reshard(Value block, NamedTensorType from, NamedTensorType to);

private:
  OpBuilder &builder;
  Location loc;
  MeshAttr mesh;
};

} // namespace mlir::tessel

#endif // TESSEL_PASSES_RESHARDING_H
