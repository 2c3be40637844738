//===- Resharding.cpp - moving a block from one layout to another ---------===//

#include "passes/Resharding.h"

#include "dialect/MeshConversion.h"
#include "layouts/CheckedArithmetic.h"

using namespace mlir;
using namespace mlir::tessel;

SmallVector<StringAttr> mlir::tessel::axesOf(LayoutAttr layout, StringRef dim) {
  return layout ? layout.getAxesOf(dim) : SmallVector<StringAttr>();
}

std::optional<NamedTensorType>
mlir::tessel::withSplitAdded(NamedTensorType type, LayoutAttr rest,
                             StringRef dim, ArrayRef<StringAttr> axes) {
  for (StringAttr axis : axes)
    if (rest && llvm::any_of(rest.getAxes(), [&](ArrayAttr used) {
          return llvm::is_contained(used, axis);
        }))
      return std::nullopt;
  SmallVector<StringAttr> dims;
  SmallVector<ArrayAttr> dimAxes;
  if (LayoutAttr kept = withLayoutOn(type, rest).getLayout())
    for (auto [name, used] : llvm::zip(kept.getDims(), kept.getAxes())) {
      dims.push_back(name);
      dimAxes.push_back(used);
    }
  MLIRContext *context = type.getContext();
  dims.push_back(StringAttr::get(context, dim));
  dimAxes.push_back(ArrayAttr::get(
      context, SmallVector<Attribute>(axes.begin(), axes.end())));
  return type.withLayout(LayoutAttr::get(context, dims, dimAxes));
}

NamedTensorType mlir::tessel::localTypeOf(NamedTensorType global,
                                          MeshAttr mesh) {
  std::vector<int64_t> shape =
      ::tessel::layout::localShape(toLayoutMesh(mesh), toTensorLayout(global));
  return NamedTensorType::get(global.getContext(), global.getDimNames(), shape,
                              global.getElementType(), LayoutAttr());
}

NamedTensorType mlir::tessel::withLayoutOn(NamedTensorType global,
                                           LayoutAttr layout) {
  SmallVector<StringAttr> dims;
  SmallVector<ArrayAttr> axes;
  if (layout)
    for (auto [dim, dimAxes] : llvm::zip(layout.getDims(), layout.getAxes()))
      if (global.hasDim(dim.getValue())) {
        dims.push_back(dim);
        axes.push_back(dimAxes);
      }
  return global.withLayout(
      dims.empty() ? LayoutAttr()
                   : LayoutAttr::get(global.getContext(), dims, axes));
}

LayoutAttr mlir::tessel::withoutSplitsOf(NamedTensorType type,
                                         ArrayRef<StringRef> dims) {
  LayoutAttr layout = type.getLayout();
  if (!layout)
    return layout;
  SmallVector<StringAttr> kept;
  SmallVector<ArrayAttr> keptAxes;
  for (auto [dim, axes] : llvm::zip(layout.getDims(), layout.getAxes()))
    if (!llvm::is_contained(dims, dim.getValue())) {
      kept.push_back(dim);
      keptAxes.push_back(axes);
    }
  return kept.empty() ? LayoutAttr()
                      : LayoutAttr::get(type.getContext(), kept, keptAxes);
}

static ArrayAttr axisArray(OpBuilder &builder, ArrayRef<StringAttr> axes) {
  return builder.getArrayAttr(SmallVector<Attribute>(axes.begin(), axes.end()));
}

/// Returns `type` with the size of `dim` multiplied by `factor` (which may
/// be a fraction written as 1/n through `divisor`).
static NamedTensorType scaledDim(NamedTensorType type, StringRef dim,
                                 int64_t factor, int64_t divisor) {
  SmallVector<int64_t> shape(type.getShape());
  shape[*type.getDimIndex(dim)] =
      shape[*type.getDimIndex(dim)] * factor / divisor;
  return NamedTensorType::get(type.getContext(), type.getDimNames(), shape,
                              type.getElementType(), type.getLayout());
}

Value Resharder::completePartialSum(Value block, ArrayRef<StringAttr> axes) {
  if (axes.empty())
    return block;
  return AllReduceOp::create(builder, loc, block.getType(), CollectiveKind::Sum,
                             block, axisArray(builder, axes));
}

Value Resharder::gatherDim(Value block, StringRef dim,
                           ArrayRef<StringAttr> axes) {
  if (axes.empty())
    return block;
  auto type = cast<NamedTensorType>(block.getType());
  int64_t group = *mesh.getGroupSize(axes);
  return AllGatherOp::create(builder, loc, scaledDim(type, dim, group, 1),
                             block, builder.getStringAttr(dim),
                             axisArray(builder, axes));
}

Value Resharder::sliceDim(Value block, StringRef dim,
                          ArrayRef<StringAttr> axes) {
  if (axes.empty())
    return block;
  auto type = cast<NamedTensorType>(block.getType());
  int64_t group = *mesh.getGroupSize(axes);
  // ceil(n / g): a split that does not divide pads its last blocks.
  SmallVector<int64_t> shape(type.getShape());
  int64_t &size = shape[*type.getDimIndex(dim)];
  size = ::tessel::ceilDiv(size, group);
  return ShardSliceOp::create(builder, loc,
                              NamedTensorType::get(type.getContext(),
                                                   type.getDimNames(), shape,
                                                   type.getElementType(),
                                                   type.getLayout()),
                              block, builder.getStringAttr(dim),
                              axisArray(builder, axes));
}

Value Resharder::permuteAxis(Value block, StringAttr from, StringAttr to) {
  // Positions in the group over [from, to] are i * |to| + j for the rank
  // at (from = i, to = j); it receives from (from = j, to = i).
  int64_t size = *mesh.getAxisSize(from.getValue());
  SmallVector<int64_t> pairs;
  for (int64_t i = 0; i < size; ++i)
    for (int64_t j = 0; j < size; ++j)
      llvm::append_values(pairs, j * size + i, i * size + j);
  return CollectivePermuteOp::create(builder, loc, block.getType(), block,
                                     axisArray(builder, {from, to}),
                                     builder.getDenseI64ArrayAttr(pairs));
}

SmallVector<StringRef> mlir::tessel::paddedDimsOf(NamedTensorType global,
                                                  MeshAttr mesh) {
  SmallVector<StringRef> padded;
  for (auto [dim, size] : llvm::zip(global.getDimNames(), global.getShape())) {
    SmallVector<StringAttr> axes = axesOf(global.getLayout(), dim.getValue());
    if (!axes.empty() && size % *mesh.getGroupSize(axes) != 0)
      padded.push_back(dim.getValue());
  }
  return padded;
}

// Each padded dimension gets a mask "global index < size" from the indices
// of the padded extent (an iota that the split divides), cut to the rank's
// block, and a select keeps the real elements.
Value Resharder::maskPadding(Value block, NamedTensorType global,
                             double fill) {
  MLIRContext *context = builder.getContext();
  auto blockType = cast<NamedTensorType>(block.getType());
  Type index = builder.getI64Type();
  auto scalarOf = [&](Type element) {
    return NamedTensorType::get(context, {}, {}, element, LayoutAttr());
  };
  for (StringRef dim : paddedDimsOf(global, mesh)) {
    SmallVector<StringAttr> axes = axesOf(global.getLayout(), dim);
    int64_t size = *global.getDimSize(dim);
    int64_t local = *blockType.getDimSize(dim);
    int64_t padded = local * *mesh.getGroupSize(axes);
    StringAttr name = builder.getStringAttr(dim);
    auto all =
        NamedTensorType::get(context, {name}, {padded}, index, LayoutAttr());
    auto mine =
        NamedTensorType::get(context, {name}, {local}, index, LayoutAttr());
    Value indices = ShardSliceOp::create(
        builder, loc, mine, IotaOp::create(builder, loc, all, name), name,
        axisArray(builder, axes));
    Value bound = ConstantOp::create(builder, loc, scalarOf(index),
                                     builder.getI64IntegerAttr(size));
    auto maskType = NamedTensorType::get(context, {name}, {local},
                                         builder.getI1Type(), LayoutAttr());
    Value real = CompareOp::create(builder, loc, maskType, CompareKind::Lt,
                                   indices, bound);
    Value fillValue = ConstantOp::create(
        builder, loc, scalarOf(blockType.getElementType()),
        isa<FloatType>(blockType.getElementType())
            ? Attribute(builder.getFloatAttr(blockType.getElementType(), fill))
            : Attribute(builder.getIntegerAttr(blockType.getElementType(),
                                               static_cast<int64_t>(fill))));
    block = SelectOp::create(builder, loc, blockType, real, block, fillValue);
  }
  return block;
}

Value Resharder::reshard(Value block, NamedTensorType from,
                         NamedTensorType to) {
  // A dimension split over axes [p..., s1...] that moves to [p..., s2...]
  // keeps the blocks of the common leading axes p: block (i, j) of the
  // finer split is part j of block i of the coarser one, since the first
  // axis is outermost. Only the trailing axes s1 are gathered and s2
  // sliced. A padded split gathers and slices over all its axes, since its
  // coarser blocks are not whole numbers of finer ones.
  //
  // A split that moves from one axis x to another y of the same size, with
  // y free before and x free after, is a collective_permute instead: the
  // rank at (x = i, y = j) needs block j, which the rank at (x = j, y = i)
  // holds. It sends one block instead of gathering all of them.
  struct Change {
    StringRef dim;
    SmallVector<StringAttr> gatherOver, sliceOver;
    StringAttr permuteFrom, permuteTo;
  };
  auto usedAxes = [](NamedTensorType type) {
    llvm::SmallDenseSet<StringAttr> axes;
    for (StringAttr dim : type.getDimNames())
      for (StringAttr axis : axesOf(type.getLayout(), dim.getValue()))
        axes.insert(axis);
    return axes;
  };
  llvm::SmallDenseSet<StringAttr> usedBefore = usedAxes(from);
  llvm::SmallDenseSet<StringAttr> usedAfter = usedAxes(to);
  SmallVector<Change> changes;
  for (auto [dim, size] : llvm::zip(from.getDimNames(), from.getShape())) {
    SmallVector<StringAttr> before = axesOf(from.getLayout(), dim.getValue());
    SmallVector<StringAttr> after = axesOf(to.getLayout(), dim.getValue());
    if (before == after)
      continue;
    size_t common = 0;
    bool divides = size % *mesh.getGroupSize(before) == 0 &&
                   size % *mesh.getGroupSize(after) == 0;
    while (divides && common < before.size() && common < after.size() &&
           before[common] == after[common])
      ++common;
    Change change{dim.getValue(),
                  SmallVector<StringAttr>(before.begin() + common,
                                          before.end()),
                  SmallVector<StringAttr>(after.begin() + common, after.end()),
                  StringAttr(), StringAttr()};
    if (divides && change.gatherOver.size() == 1 &&
        change.sliceOver.size() == 1) {
      StringAttr x = change.gatherOver.front(), y = change.sliceOver.front();
      if (mesh.getAxisSize(x.getValue()) == mesh.getAxisSize(y.getValue()) &&
          !usedBefore.contains(y) && !usedAfter.contains(x)) {
        change.permuteFrom = x;
        change.permuteTo = y;
        change.gatherOver.clear();
        change.sliceOver.clear();
      }
    }
    changes.push_back(std::move(change));
  }
  // [dim over p + s1] -> [dim over p] for every changed dimension ...
  for (const Change &change : changes) {
    block = gatherDim(block, change.dim, change.gatherOver);
    // A padded split gathers ceil(n / g) * g elements: the padding goes.
    auto gathered = cast<NamedTensorType>(block.getType());
    int64_t size = *from.getDimSize(change.dim);
    if (change.gatherOver.size() ==
            axesOf(from.getLayout(), change.dim).size() &&
        *gathered.getDimSize(change.dim) != size) {
      SmallVector<int64_t> shape(gathered.getShape());
      shape[*gathered.getDimIndex(change.dim)] = size;
      block = SliceOp::create(
          builder, loc,
          NamedTensorType::get(gathered.getContext(), gathered.getDimNames(),
                               shape, gathered.getElementType(), LayoutAttr()),
          block, builder.getStrArrayAttr({change.dim}),
          builder.getDenseI64ArrayAttr({0}));
    }
  }
  // ... [dim over p + x] -> [dim over p + y] ...
  for (const Change &change : changes)
    if (change.permuteFrom)
      block = permuteAxis(block, change.permuteFrom, change.permuteTo);
  // ... then [dim over p] -> [dim over p + s2]. Gathering every dimension
  // first means no mesh axis splits two dimensions in between.
  for (const Change &change : changes)
    block = sliceDim(block, change.dim, change.sliceOver);
  return block;
}
