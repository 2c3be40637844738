//===- SplitReductions.cpp - softmax and cross-entropy on split classes ---===//

#include "passes/SplitReductions.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Builds model-level ops over local blocks, with the result types they
/// need.
class BlockOps {
public:
  BlockOps(OpBuilder &builder, Location loc) : builder(builder), loc(loc) {}

  /// Returns `type` without `dim`.
  static NamedTensorType without(NamedTensorType type, StringRef dim) {
    SmallVector<StringAttr> names;
    SmallVector<int64_t> shape;
    for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape()))
      if (name.getValue() != dim) {
        names.push_back(name);
        shape.push_back(size);
      }
    return NamedTensorType::get(type.getContext(), names, shape,
                                type.getElementType(), LayoutAttr());
  }

  /// Reduces `x` along `dims` on the block, then across the ranks of
  /// `axes`.
  Value reduceAcross(Value x, ArrayRef<StringRef> dims, ReduceKind local,
                     CollectiveKind across, ArrayRef<StringAttr> axes) {
    auto type = cast<NamedTensorType>(x.getType());
    for (StringRef dim : dims)
      type = without(type, dim);
    Value partial = ReduceOp::create(builder, loc, type, local, x);
    return AllReduceOp::create(
        builder, loc, partial.getType(), across, partial,
        builder.getArrayAttr(SmallVector<Attribute>(axes.begin(), axes.end())));
  }

  /// Returns a scalar constant with the element type of `like`.
  Value scalar(Value like, double value) {
    auto type = cast<NamedTensorType>(like.getType());
    auto scalarType = NamedTensorType::get(type.getContext(), {}, {},
                                           type.getElementType(), LayoutAttr());
    return ConstantOp::create(builder, loc, scalarType,
                              builder.getF64FloatAttr(value));
  }

  /// Returns a scalar integer constant of `elementType`.
  Value integer(Type elementType, int64_t value) {
    auto scalarType = NamedTensorType::get(builder.getContext(), {}, {},
                                           elementType, LayoutAttr());
    return ConstantOp::create(builder, loc, scalarType,
                              builder.getIntegerAttr(elementType, value));
  }

  /// Returns the global indices of this rank's block of `dim` (of global
  /// size `size`, split over `axes`), in `elementType`.
  Value blockIndices(StringRef dim, int64_t size, int64_t blockSize,
                     Type elementType, ArrayRef<StringAttr> axes) {
    MLIRContext *context = builder.getContext();
    StringAttr name = builder.getStringAttr(dim);
    auto all = NamedTensorType::get(context, {name}, {size}, elementType,
                                    LayoutAttr());
    auto block = NamedTensorType::get(context, {name}, {blockSize}, elementType,
                                      LayoutAttr());
    return ShardSliceOp::create(
        builder, loc, block, IotaOp::create(builder, loc, all, name), name,
        builder.getArrayAttr(SmallVector<Attribute>(axes.begin(), axes.end())));
  }

  template <typename BinaryOp> Value binary(Value lhs, Value rhs, Type type) {
    return BinaryOp::create(builder, loc, type, lhs, rhs);
  }
  template <typename UnaryOp> Value unary(Value x) {
    return UnaryOp::create(builder, loc, x.getType(), x);
  }

  OpBuilder &builder;
  Location loc;
};

} // namespace

Value mlir::tessel::buildSplitSoftmax(OpBuilder &builder, Location loc, Value x,
                                      StringRef dim, ArrayRef<StringAttr> axes,
                                      bool logarithm) {
  BlockOps ops(builder, loc);
  Type type = x.getType();
  // Subtracting the global maximum keeps exp from overflowing, as the
  // one-rank softmax does.
  Value max =
      ops.reduceAcross(x, {dim}, ReduceKind::Max, CollectiveKind::Max, axes);
  Value shifted = ops.binary<SubOp>(x, max, type);
  Value exps = ops.unary<ExpOp>(shifted);
  Value sum =
      ops.reduceAcross(exps, {dim}, ReduceKind::Sum, CollectiveKind::Sum, axes);
  if (!logarithm)
    return ops.binary<DivOp>(exps, sum, type);
  return ops.binary<SubOp>(shifted, ops.unary<LogOp>(sum), type);
}

Value mlir::tessel::buildSplitCrossEntropy(OpBuilder &builder, Location loc,
                                           Value logits, Value labels,
                                           StringRef dim, int64_t classes,
                                           ArrayRef<StringAttr> axes) {
  BlockOps ops(builder, loc);
  auto logitsType = cast<NamedTensorType>(logits.getType());
  auto labelsType = cast<NamedTensorType>(labels.getType());
  NamedTensorType lossType = BlockOps::without(logitsType, dim);
  MLIRContext *context = builder.getContext();
  ArrayAttr axisArray =
      builder.getArrayAttr(SmallVector<Attribute>(axes.begin(), axes.end()));

  // loss = log(sum exp(x - max)) - (x[label] - max).
  Value max = ops.reduceAcross(logits, {dim}, ReduceKind::Max,
                               CollectiveKind::Max, axes);
  Value shifted = ops.binary<SubOp>(logits, max, logitsType);
  Value sum = ops.reduceAcross(ops.unary<ExpOp>(shifted), {dim},
                               ReduceKind::Sum, CollectiveKind::Sum, axes);
  Value logSum = ops.unary<LogOp>(sum);

  // The global index of each of this rank's classes.
  Value ids = ops.blockIndices(dim, classes, *logitsType.getDimSize(dim),
                               labelsType.getElementType(), axes);
  // Exactly one rank holds each label's class; the others add zero.
  auto maskType = logitsType.withElementType(builder.getI1Type());
  Value isLabel =
      CompareOp::create(builder, loc, maskType, CompareKind::Eq, labels, ids);
  auto scalar = NamedTensorType::get(context, {}, {},
                                     logitsType.getElementType(), LayoutAttr());
  Value zero =
      ConstantOp::create(builder, loc, scalar, builder.getF64FloatAttr(0.0));
  Value picked =
      SelectOp::create(builder, loc, logitsType, isLabel, shifted, zero);
  Value labelLogit = ops.reduceAcross(picked, {dim}, ReduceKind::Sum,
                                      CollectiveKind::Sum, axes);
  Value loss = ops.binary<SubOp>(logSum, labelLogit, lossType);

  // A label outside [0, classes) matches no rank's classes and would add
  // nothing, a finite loss, where one rank's kernel fails on it. Looking
  // every label up in a table of `classes` zeros fails on it the same way
  // at run time (an id outside the table, at this op's location) and adds
  // an exact 0 to the loss otherwise.
  auto tableType =
      NamedTensorType::get(context, {builder.getStringAttr(dim)}, {classes},
                           logitsType.getElementType(), LayoutAttr());
  Value table =
      ConstantOp::create(builder, loc, tableType, builder.getF64FloatAttr(0.0));
  Value checked = GatherOp::create(builder, loc, lossType, table, labels,
                                   builder.getStringAttr(dim));
  return ops.binary<AddOp>(loss, checked, lossType);
}

Value mlir::tessel::buildSplitLayerNorm(OpBuilder &builder, Location loc,
                                        Value x, ArrayRef<StringRef> dims,
                                        ArrayRef<StringAttr> axes,
                                        int64_t count, double epsilon) {
  BlockOps ops(builder, loc);
  Type type = x.getType();
  Value inverseCount = ops.scalar(x, 1.0 / count);
  // Two passes, as the one-rank op: the variance of the centred values.
  Value sum =
      ops.reduceAcross(x, dims, ReduceKind::Sum, CollectiveKind::Sum, axes);
  Value mean = ops.binary<MulOp>(sum, inverseCount, sum.getType());
  Value centred = ops.binary<SubOp>(x, mean, type);
  Value squares = ops.binary<MulOp>(centred, centred, type);
  Value squareSum = ops.reduceAcross(squares, dims, ReduceKind::Sum,
                                     CollectiveKind::Sum, axes);
  Value variance =
      ops.binary<MulOp>(squareSum, inverseCount, squareSum.getType());
  Value shifted =
      ops.binary<AddOp>(variance, ops.scalar(x, epsilon), variance.getType());
  return ops.binary<MulOp>(centred, ops.unary<RsqrtOp>(shifted), type);
}

Value mlir::tessel::buildSplitGather(OpBuilder &builder, Location loc,
                                     Value table, Value ids, StringRef dim,
                                     int64_t rows, ArrayRef<StringAttr> axes,
                                     Type resultType) {
  BlockOps ops(builder, loc);
  auto tableType = cast<NamedTensorType>(table.getType());
  auto idsType = cast<NamedTensorType>(ids.getType());
  Type idType = idsType.getElementType();
  int64_t blockRows = *tableType.getDimSize(dim);
  // The first row this rank holds, as a scalar.
  Value indices = ops.blockIndices(dim, rows, blockRows, idType, axes);
  auto scalarId =
      NamedTensorType::get(builder.getContext(), {}, {}, idType, LayoutAttr());
  Value firstRow =
      ReduceOp::create(builder, loc, scalarId, ReduceKind::Min, indices);
  Value local = ops.binary<SubOp>(ids, firstRow, idsType);
  // An id is this rank's when 0 <= id - firstRow < blockRows.
  auto maskType = idsType.withElementType(builder.getI1Type());
  Value notBelow = CompareOp::create(builder, loc, maskType, CompareKind::Ge,
                                     local, ops.integer(idType, 0));
  Value below = CompareOp::create(builder, loc, maskType, CompareKind::Lt,
                                  local, ops.integer(idType, blockRows));
  Value mine = SelectOp::create(builder, loc, maskType, notBelow, below,
                                ops.integer(builder.getI1Type(), 0));
  // An id outside the whole table, [0, rows), is no rank's and would come
  // back as zeros; it is looked up at its local index instead, which lies
  // outside every block too, so the gather fails on it as one rank's does.
  Value notNegative = CompareOp::create(builder, loc, maskType, CompareKind::Ge,
                                        ids, ops.integer(idType, 0));
  Value belowRows = CompareOp::create(builder, loc, maskType, CompareKind::Lt,
                                      ids, ops.integer(idType, rows));
  Value inTable =
      SelectOp::create(builder, loc, maskType, notNegative, belowRows,
                       ops.integer(builder.getI1Type(), 0));
  Value lookUp = SelectOp::create(builder, loc, maskType, inTable, mine,
                                  ops.integer(builder.getI1Type(), 1));
  // Other ranks' ids read row 0 and are zeroed afterwards.
  Value safe = SelectOp::create(builder, loc, idsType, lookUp, local,
                                ops.integer(idType, 0));
  Value found = GatherOp::create(builder, loc, resultType, table, safe,
                                 builder.getStringAttr(dim));
  Value kept = SelectOp::create(builder, loc, resultType, mine, found,
                                ops.scalar(table, 0.0));
  return AllReduceOp::create(
      builder, loc, resultType, CollectiveKind::Sum, kept,
      builder.getArrayAttr(SmallVector<Attribute>(axes.begin(), axes.end())));
}

Value mlir::tessel::buildSplitTopK(OpBuilder &builder, Location loc, Value x,
                                   StringRef dim, int64_t size, int64_t k,
                                   StringRef outDim, bool indices,
                                   ArrayRef<StringAttr> axes,
                                   NamedTensorType resultType) {
  BlockOps ops(builder, loc);
  auto xType = cast<NamedTensorType>(x.getType());
  int64_t blockSize = *xType.getDimSize(dim);
  int64_t perBlock = std::min(k, blockSize);
  int64_t candidates = perBlock * (size / blockSize);
  ArrayAttr axisArray =
      builder.getArrayAttr(SmallVector<Attribute>(axes.begin(), axes.end()));
  StringAttr dimName = builder.getStringAttr(dim);
  StringAttr outName = builder.getStringAttr(outDim);
  // x's type with `dim` replaced in place by `name` of size `count`.
  auto replaced = [&](StringAttr name, int64_t count, Type elementType) {
    SmallVector<StringAttr> names(xType.getDimNames());
    SmallVector<int64_t> shape(xType.getShape());
    int64_t position = *xType.getDimIndex(dim);
    names[position] = name;
    shape[position] = count;
    return NamedTensorType::get(builder.getContext(), names, shape, elementType,
                                LayoutAttr());
  };
  // [.., dim: block] -> [.., outDim: perBlock] -> [.., dim: candidates]:
  // the block's top values (or indices), gathered from every block and
  // renamed to `dim`, ready for the second round.
  auto candidatesOf = [&](Value local) {
    Type element = cast<NamedTensorType>(local.getType()).getElementType();
    Value gathered = AllGatherOp::create(builder, loc,
                                         replaced(outName, candidates, element),
                                         local, outName, axisArray);
    return RenameOp::create(builder, loc,
                            replaced(dimName, candidates, element), gathered);
  };
  Type valueType = xType.getElementType();
  Value values = candidatesOf(
      TopKOp::create(builder, loc, replaced(outName, perBlock, valueType), x,
                     dim, perBlock, outDim, false));
  if (!indices)
    return TopKOp::create(builder, loc, resultType, values, dim, k, outDim,
                          false);

  // The candidates' global indices: each block's local indices plus the
  // global index of its first element.
  Type i32 = builder.getI32Type();
  auto scalarI32 =
      NamedTensorType::get(builder.getContext(), {}, {}, i32, LayoutAttr());
  Value offset =
      ReduceOp::create(builder, loc, scalarI32, ReduceKind::Min,
                       ops.blockIndices(dim, size, blockSize, i32, axes));
  NamedTensorType localIndexType = replaced(outName, perBlock, i32);
  Value localIndices = TopKOp::create(builder, loc, localIndexType, x, dim,
                                      perBlock, outDim, true);
  Value globalIndices =
      candidatesOf(ops.binary<AddOp>(localIndices, offset, localIndexType));

  // The positions among the candidates the second round picks, and the
  // global index at each: sum over the candidates of (position == p) ?
  // index : 0, all in integers.
  NamedTensorType positionType = replaced(outName, k, i32);
  Value positions =
      TopKOp::create(builder, loc, positionType, values, dim, k, outDim, true);
  auto candidateType = NamedTensorType::get(builder.getContext(), {dimName},
                                            {candidates}, i32, LayoutAttr());
  Value candidateIds = IotaOp::create(builder, loc, candidateType, dimName);
  SmallVector<StringAttr> maskDims(positionType.getDimNames());
  SmallVector<int64_t> maskShape(positionType.getShape());
  maskDims.push_back(dimName);
  maskShape.push_back(candidates);
  auto maskType =
      NamedTensorType::get(builder.getContext(), maskDims, maskShape,
                           builder.getI1Type(), LayoutAttr());
  Value isPicked = CompareOp::create(builder, loc, maskType, CompareKind::Eq,
                                     positions, candidateIds);
  Value picked = SelectOp::create(builder, loc, maskType.withElementType(i32),
                                  isPicked, globalIndices, ops.integer(i32, 0));
  Value chosen =
      ReduceOp::create(builder, loc, positionType, ReduceKind::Sum, picked);
  // The result may hold i64 and list its dims in another order.
  NamedTensorType castType =
      positionType.withElementType(resultType.getElementType());
  if (castType != positionType)
    chosen = CastOp::create(builder, loc, castType, chosen);
  if (castType != resultType)
    chosen = TransposeOp::create(builder, loc, resultType, chosen);
  return chosen;
}
