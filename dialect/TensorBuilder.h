//===- TensorBuilder.h - build model-level ops by dimension name -*- C++
//-*-===//
//
// A small builder of model-level ops whose result types follow from their
// operands by name (an element-wise op's result has the union of its
// operands' dimensions). The gradients of the ops and the optimizer updates
// of tessel-autodiff are written with it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_TENSORBUILDER_H
#define TESSEL_DIALECT_TENSORBUILDER_H

#include "dialect/TesselDialect.h"

namespace mlir::tessel {

/// Returns the tessel tensor type of `value`.
inline NamedTensorType tensorTypeOf(Value value) {
  return cast<NamedTensorType>(value.getType());
}

/// Builds model-level ops at one location.
class TensorBuilder {
public:
  TensorBuilder(OpBuilder &builder, Location loc)
      : builder(builder), loc(loc) {}

  /// A rank-0 constant of `elementType`.
  Value scalar(double value, Type elementType) {
    return ConstantOp::create(builder, loc,
                              NamedTensorType::get({}, {}, elementType),
                              builder.getFloatAttr(elementType, value));
  }
  Value scalarLike(double value, Value like) {
    return scalar(value, tensorTypeOf(like).getElementType());
  }

  /// The type with `a`'s dimensions followed by those of `b` it lacks.
  NamedTensorType joined(NamedTensorType a, NamedTensorType b) {
    SmallVector<StringAttr> names(a.getDimNames());
    SmallVector<int64_t> shape(a.getShape());
    for (auto [name, size] : llvm::zip(b.getDimNames(), b.getShape()))
      if (!a.hasDim(name.getValue())) {
        names.push_back(name);
        shape.push_back(size);
      }
    return NamedTensorType::get(names, shape, a.getElementType());
  }

  /// `type` restricted to the dimensions `keep` accepts, in its order.
  template <typename Keep>
  NamedTensorType restricted(NamedTensorType type, Keep &&keep) {
    SmallVector<StringAttr> names;
    SmallVector<int64_t> shape;
    for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape()))
      if (keep(name.getValue())) {
        names.push_back(name);
        shape.push_back(size);
      }
    return NamedTensorType::get(names, shape, type.getElementType());
  }

  /// `type` without the dimensions in `dims`.
  NamedTensorType without(NamedTensorType type, ArrayRef<StringRef> dims) {
    return restricted(
        type, [&](StringRef name) { return !llvm::is_contained(dims, name); });
  }

  template <typename BinaryOp> Value binary(Value lhs, Value rhs) {
    return BinaryOp::create(
        builder, loc, joined(tensorTypeOf(lhs), tensorTypeOf(rhs)), lhs, rhs);
  }
  Value add(Value a, Value b) { return binary<AddOp>(a, b); }
  Value sub(Value a, Value b) { return binary<SubOp>(a, b); }
  Value mul(Value a, Value b) { return binary<MulOp>(a, b); }
  Value div(Value a, Value b) { return binary<DivOp>(a, b); }
  Value neg(Value a) { return NegOp::create(builder, loc, tensorTypeOf(a), a); }
  Value exp(Value a) { return ExpOp::create(builder, loc, tensorTypeOf(a), a); }
  Value log(Value a) { return LogOp::create(builder, loc, tensorTypeOf(a), a); }
  Value sqrt(Value a) {
    return SqrtOp::create(builder, loc, tensorTypeOf(a), a);
  }
  Value max(Value a, Value b) { return binary<MaxOp>(a, b); }

  /// An i1 tensor: `kind` of a and b, broadcast by name.
  Value compare(CompareKind kind, Value a, Value b) {
    NamedTensorType type = joined(tensorTypeOf(a), tensorTypeOf(b));
    return CompareOp::create(
        builder, loc, type.withElementType(builder.getI1Type()), kind, a, b);
  }

  /// `condition ? onTrue : onFalse` over the type of `like`.
  Value select(Value condition, Value onTrue, Value onFalse,
               NamedTensorType type) {
    return SelectOp::create(builder, loc, type, condition, onTrue, onFalse);
  }

  /// `value` where `condition` holds and 0 elsewhere, of type `type`.
  Value where(Value condition, Value value, NamedTensorType type) {
    return select(condition, value, scalarLike(0.0, value), type);
  }

  Value reduce(ReduceKind kind, Value input, NamedTensorType type) {
    return ReduceOp::create(builder, loc, type, kind, input);
  }

  /// Brings a gradient to `target`'s dimensions: sums over the dimensions
  /// target lacks (a broadcast's gradient), repeats along those it lacks
  /// itself, and puts the dimensions in target's order.
  Value fitTo(Value gradient, NamedTensorType target) {
    NamedTensorType type = tensorTypeOf(gradient);
    NamedTensorType kept =
        restricted(type, [&](StringRef name) { return target.hasDim(name); });
    if (kept.getRank() != type.getRank())
      gradient = reduce(ReduceKind::Sum, gradient, kept);
    if (kept.getRank() != target.getRank())
      return BroadcastOp::create(builder, loc, target, gradient);
    if (tensorTypeOf(gradient) != target)
      return TransposeOp::create(builder, loc, target, gradient);
    return gradient;
  }

  OpBuilder &builder;
  Location loc;
};

} // namespace mlir::tessel

#endif // TESSEL_DIALECT_TENSORBUILDER_H
