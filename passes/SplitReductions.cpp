//===- SplitReductions.cpp - softmax and cross-entropy on split classes ---===//

#include "passes/SplitReductions.h"

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
    auto scalarType = NamedTensorType::get(
        type.getContext(), {}, {}, type.getElementType(), LayoutAttr());
    return ConstantOp::create(builder, loc, scalarType,
                              builder.getF64FloatAttr(value));
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
  Value max =
      ops.reduceAcross(logits, {dim}, ReduceKind::Max, CollectiveKind::Max, axes);
  Value shifted = ops.binary<SubOp>(logits, max, logitsType);
  Value sum = ops.reduceAcross(ops.unary<ExpOp>(shifted), {dim}, ReduceKind::Sum,
                               CollectiveKind::Sum, axes);
  Value logSum = ops.unary<LogOp>(sum);

  // The global index of each of this rank's classes.
  StringAttr dimName = builder.getStringAttr(dim);
  int64_t localClasses = *logitsType.getDimSize(dim);
  Type indexType = labelsType.getElementType();
  auto allIds = NamedTensorType::get(context, {dimName}, {classes}, indexType,
                                     LayoutAttr());
  auto localIds = NamedTensorType::get(context, {dimName}, {localClasses},
                                       indexType, LayoutAttr());
  Value ids = ShardSliceOp::create(
      builder, loc, localIds, IotaOp::create(builder, loc, allIds, dimName),
      dimName, axisArray);
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
  Value labelLogit =
      ops.reduceAcross(picked, {dim}, ReduceKind::Sum, CollectiveKind::Sum, axes);
  return ops.binary<SubOp>(logSum, labelLogit, lossType);
}

Value mlir::tessel::buildSplitLayerNorm(OpBuilder &builder, Location loc,
                                        Value x, ArrayRef<StringRef> dims,
                                        ArrayRef<StringAttr> axes,
                                        int64_t count, double epsilon) {
  BlockOps ops(builder, loc);
  Type type = x.getType();
  Value inverseCount = ops.scalar(x, 1.0 / count);
  // Two passes, as the one-rank op: the variance of the centred values.
  Value sum = ops.reduceAcross(x, dims, ReduceKind::Sum, CollectiveKind::Sum,
                               axes);
  Value mean = ops.binary<MulOp>(sum, inverseCount, sum.getType());
  Value centred = ops.binary<SubOp>(x, mean, type);
  Value squares = ops.binary<MulOp>(centred, centred, type);
  Value squareSum = ops.reduceAcross(squares, dims, ReduceKind::Sum,
                                     CollectiveKind::Sum, axes);
  Value variance =
      ops.binary<MulOp>(squareSum, inverseCount, squareSum.getType());
  Value shifted = ops.binary<AddOp>(variance, ops.scalar(x, epsilon),
                                    variance.getType());
  return ops.binary<MulOp>(centred, ops.unary<RsqrtOp>(shifted), type);
}
