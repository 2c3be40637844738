//===- Gradients.cpp - how each model-level op is differentiated ----------===//
//
// The DifferentiableOpInterface implementations: for each op, the
// model-level ops that carry the gradient of its result back to its
// operands. They are ordinary tessel ops over named dimensions, so the
// backward program needs no rule of its own to be laid out and partitioned:
// a gradient has the dimensions (and so the layout) of its value.
//
// Notation in the comments: y is the op's result, dy its gradient, and dx,
// da, db the gradients built for the operands.
//
//===----------------------------------------------------------------------===//

#include "dialect/TensorBuilder.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;

namespace {
NamedTensorType typeOf(Value value) {
  return cast<NamedTensorType>(value.getType());
}

bool isFloat(Value value) {
  return isa<FloatType>(typeOf(value).getElementType());
}

using GradientBuilder = TensorBuilder;
} // namespace

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

// For y = einsum(a, b, c), da = einsum(dy, b, c) over a's dimensions: every
// dimension of a that dy or another input has comes out of that einsum, and
// one that only a has (summed inside the einsum) is a broadcast.
void EinsumOp::buildGradients(OpBuilder &builder, Value resultGradient,
                              SmallVectorImpl<Value> &operandGradients) {
  GradientBuilder g(builder, getLoc());
  for (auto [index, input] : llvm::enumerate(getInputs())) {
    SmallVector<Value> factors = {resultGradient};
    for (auto [other, otherInput] : llvm::enumerate(getInputs()))
      if (other != index)
        factors.push_back(otherInput);
    NamedTensorType inputType = typeOf(input);
    NamedTensorType reached = g.restricted(inputType, [&](StringRef name) {
      return llvm::any_of(
          factors, [&](Value factor) { return typeOf(factor).hasDim(name); });
    });
    Value gradient =
        factors.size() == 1
            ? g.fitTo(resultGradient, reached)
            : Value(EinsumOp::create(builder, getLoc(), reached, factors));
    operandGradients.push_back(g.fitTo(gradient, inputType));
  }
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

void NegOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  grads.push_back(GradientBuilder(builder, getLoc()).neg(dy));
}

// |x|' is the sign of x, 0 at 0.
void AbsOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value x = getInput(), zero = g.scalarLike(0.0, x);
  Value negative =
      g.where(g.compare(CompareKind::Lt, x, zero), g.neg(dy), typeOf(x));
  grads.push_back(
      g.select(g.compare(CompareKind::Gt, x, zero), dy, negative, typeOf(x)));
}

// dx = dy * y.
void ExpOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  grads.push_back(GradientBuilder(builder, getLoc()).mul(dy, getResult()));
}

// dx = dy / x.
void LogOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  grads.push_back(GradientBuilder(builder, getLoc()).div(dy, getInput()));
}

// dx = dy * 0.5 / y.
void SqrtOp::buildGradients(OpBuilder &builder, Value dy,
                            SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  grads.push_back(g.div(g.mul(dy, g.scalarLike(0.5, dy)), getResult()));
}

// y = x^-1/2, so dx = dy * -0.5 * y / x.
void RsqrtOp::buildGradients(OpBuilder &builder, Value dy,
                             SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value scaled = g.mul(dy, g.mul(getResult(), g.scalarLike(-0.5, dy)));
  grads.push_back(g.div(scaled, getInput()));
}

// dx = dy * (1 - y^2).
void TanhOp::buildGradients(OpBuilder &builder, Value dy,
                            SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value y = getResult();
  grads.push_back(g.mul(dy, g.sub(g.scalarLike(1.0, y), g.mul(y, y))));
}

// dx = dy * y * (1 - y).
void SigmoidOp::buildGradients(OpBuilder &builder, Value dy,
                               SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value y = getResult();
  grads.push_back(g.mul(g.mul(dy, y), g.sub(g.scalarLike(1.0, y), y)));
}

// dx = dy where x > 0, else 0 (the subgradient 0 at 0, as PyTorch).
void ReluOp::buildGradients(OpBuilder &builder, Value dy,
                            SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value x = getInput();
  grads.push_back(g.where(g.compare(CompareKind::Gt, x, g.scalarLike(0.0, x)),
                          dy, typeOf(x)));
}

// gelu(x) = x * Phi(x), so dx = dy * (Phi(x) + x * phi(x)) with
// Phi(x) = (1 + erf(x / sqrt 2)) / 2 and phi(x) = e^(-x^2/2) / sqrt(2 pi).
void GeluOp::buildGradients(OpBuilder &builder, Value dy,
                            SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value x = getInput();
  Value erf = ErfOp::create(builder, getLoc(), typeOf(x),
                            g.mul(x, g.scalarLike(M_SQRT1_2, x)));
  Value cdf = g.mul(g.add(erf, g.scalarLike(1.0, x)), g.scalarLike(0.5, x));
  Value pdf = g.mul(g.exp(g.mul(g.mul(x, x), g.scalarLike(-0.5, x))),
                    g.scalarLike(0.5 * M_2_SQRTPI * M_SQRT1_2, x));
  grads.push_back(g.mul(dy, g.add(cdf, g.mul(x, pdf))));
}

// dx = dy * 2 / sqrt(pi) * e^(-x^2).
void ErfOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value x = getInput();
  Value density = g.mul(g.exp(g.neg(g.mul(x, x))), g.scalarLike(M_2_SQRTPI, x));
  grads.push_back(g.mul(dy, density));
}

// dx = dy * cos(x).
void SinOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value x = getInput();
  grads.push_back(g.mul(dy, CosOp::create(builder, getLoc(), typeOf(x), x)));
}

// dx = -dy * sin(x).
void CosOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value x = getInput();
  grads.push_back(
      g.mul(g.neg(dy), SinOp::create(builder, getLoc(), typeOf(x), x)));
}

// Binary ops broadcast by name, so each operand's gradient is summed over
// the result dimensions it lacks (fitTo).
void AddOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  grads.push_back(g.fitTo(dy, typeOf(getLhs())));
  grads.push_back(g.fitTo(dy, typeOf(getRhs())));
}

void SubOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  grads.push_back(g.fitTo(dy, typeOf(getLhs())));
  grads.push_back(g.fitTo(g.neg(dy), typeOf(getRhs())));
}

void MulOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  grads.push_back(g.fitTo(g.mul(dy, getRhs()), typeOf(getLhs())));
  grads.push_back(g.fitTo(g.mul(dy, getLhs()), typeOf(getRhs())));
}

// da = dy / b, db = -dy * y / b.
void DivOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  grads.push_back(g.fitTo(g.div(dy, getRhs()), typeOf(getLhs())));
  grads.push_back(g.fitTo(g.neg(g.div(g.mul(dy, getResult()), getRhs())),
                          typeOf(getRhs())));
}

// The gradient goes to the operand that was chosen (`lhsChosenBy` compares
// the left with the right); a tie goes to the left operand, so that the two
// gradients always add up to dy.
static void buildChoiceGradients(OpBuilder &builder, Location loc, Value lhs,
                                 Value rhs, Value dy, CompareKind lhsChosenBy,
                                 SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, loc);
  NamedTensorType type = typeOf(dy);
  Value lhsChosen = g.compare(lhsChosenBy, lhs, rhs);
  grads.push_back(g.fitTo(g.where(lhsChosen, dy, type), typeOf(lhs)));
  grads.push_back(g.fitTo(g.select(lhsChosen, g.scalarLike(0.0, dy), dy, type),
                          typeOf(rhs)));
}

void MaxOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  buildChoiceGradients(builder, getLoc(), getLhs(), getRhs(), dy,
                       CompareKind::Ge, grads);
}

void MinOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  buildChoiceGradients(builder, getLoc(), getLhs(), getRhs(), dy,
                       CompareKind::Le, grads);
}

// y = a^b: da = dy * b * a^(b-1), db = dy * y * ln(a) (defined for a > 0).
void PowOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value a = getLhs(), b = getRhs();
  Value power = g.binary<PowOp>(a, g.sub(b, g.scalarLike(1.0, b)));
  grads.push_back(g.fitTo(g.mul(dy, g.mul(b, power)), typeOf(a)));
  grads.push_back(g.fitTo(g.mul(dy, g.mul(getResult(), g.log(a))), typeOf(b)));
}

// The condition gets no gradient; each branch gets dy where it was chosen.
void SelectOp::buildGradients(OpBuilder &builder, Value dy,
                              SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  NamedTensorType type = typeOf(dy);
  Value zero = g.scalarLike(0.0, dy);
  grads.push_back(Value());
  grads.push_back(
      g.fitTo(g.select(getCondition(), dy, zero, type), typeOf(getOnTrue())));
  grads.push_back(
      g.fitTo(g.select(getCondition(), zero, dy, type), typeOf(getOnFalse())));
}

// The gradient goes back to the input's precision.
void CastOp::buildGradients(OpBuilder &builder, Value dy,
                            SmallVectorImpl<Value> &grads) {
  if (!isFloat(getInput())) {
    grads.push_back(Value());
    return;
  }
  grads.push_back(CastOp::create(builder, getLoc(), typeOf(getInput()), dy));
}

void BroadcastOp::buildGradients(OpBuilder &builder, Value dy,
                                 SmallVectorImpl<Value> &grads) {
  grads.push_back(
      GradientBuilder(builder, getLoc()).fitTo(dy, typeOf(getInput())));
}

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

// sum: dy repeated over the reduced dimensions; mean: also divided by their
// element count; max and min: dy to every element equal to the extremum
// (ties all receive it); prod: dy * y / x (defined where x is not 0).
void ReduceOp::buildGradients(OpBuilder &builder, Value dy,
                              SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value x = getInput();
  NamedTensorType type = typeOf(x);
  switch (getKind()) {
  case ReduceKind::Sum:
    grads.push_back(g.fitTo(dy, type));
    return;
  case ReduceKind::Mean: {
    double count = static_cast<double>(type.getNumElements()) /
                   static_cast<double>(getType().getNumElements());
    grads.push_back(g.fitTo(g.mul(dy, g.scalarLike(1.0 / count, dy)), type));
    return;
  }
  case ReduceKind::Max:
  case ReduceKind::Min:
    grads.push_back(
        g.where(g.compare(CompareKind::Eq, x, getResult()), dy, type));
    return;
  case ReduceKind::Prod:
    grads.push_back(g.fitTo(g.div(g.mul(dy, getResult()), x), type));
    return;
  }
}

// dx = y * (dy - sum_d(dy * y)).
void SoftmaxOp::buildGradients(OpBuilder &builder, Value dy,
                               SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value y = getResult();
  Value dot =
      g.reduce(ReduceKind::Sum, g.mul(dy, y), g.without(typeOf(y), {getDim()}));
  grads.push_back(g.mul(y, g.sub(dy, dot)));
}

// dx = dy - e^y * sum_d(dy).
void LogSoftmaxOp::buildGradients(OpBuilder &builder, Value dy,
                                  SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value y = getResult();
  Value total = g.reduce(ReduceKind::Sum, dy, g.without(typeOf(y), {getDim()}));
  grads.push_back(g.sub(dy, g.mul(g.exp(y), total)));
}

// dx = dy * keep / (1 - rate) with the forward's mask: the same dropout
// (seed, step, rate) of dy. The step, an integer, gets no gradient.
void DropoutOp::buildGradients(OpBuilder &builder, Value dy,
                               SmallVectorImpl<Value> &grads) {
  grads.push_back(DropoutOp::create(builder, getLoc(), typeOf(dy), dy,
                                    getStep(), getRateAttr(), getSeedAttr(),
                                    TypeAttr()));
  grads.push_back(Value());
}

// Each x_j counts in every y_i with i >= j (i <= j with reverse), so dx is
// the cumsum of dy in the other direction.
void CumsumOp::buildGradients(OpBuilder &builder, Value dy,
                              SmallVectorImpl<Value> &grads) {
  grads.push_back(CumsumOp::create(builder, getLoc(), typeOf(dy), dy, getDim(),
                                   !getReverse()));
}

// dlogits = (softmax(logits) - one_hot(labels)) * dy; labels get none.
void SoftmaxCrossEntropyOp::buildGradients(OpBuilder &builder, Value dy,
                                           SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  NamedTensorType type = typeOf(getLogits());
  Value probabilities =
      SoftmaxOp::create(builder, getLoc(), type, getLogits(), getDim());
  Value target =
      OneHotOp::create(builder, getLoc(), type, getLabels(), getDim());
  grads.push_back(g.mul(g.sub(probabilities, target), dy));
  grads.push_back(Value());
}

// With y = (x - mean) * r and r = 1 / sqrt(var + epsilon), all over the
// normalised dims D: dx = r * (dy - mean_D(dy) - y * mean_D(dy * y)).
void LayerNormOp::buildGradients(OpBuilder &builder, Value dy,
                                 SmallVectorImpl<Value> &grads) {
  GradientBuilder g(builder, getLoc());
  Value x = getInput(), y = getResult();
  SmallVector<StringRef> dims;
  for (Attribute dim : getDims())
    dims.push_back(cast<StringAttr>(dim).getValue());
  NamedTensorType perRow = g.without(typeOf(x), dims);
  Value centred = g.sub(x, g.reduce(ReduceKind::Mean, x, perRow));
  Value variance = g.reduce(ReduceKind::Mean, g.mul(centred, centred), perRow);
  Value inverse = RsqrtOp::create(
      builder, getLoc(), perRow,
      g.add(variance, g.scalarLike(getEpsilon().convertToDouble(), variance)));
  Value meanGradient = g.reduce(ReduceKind::Mean, dy, perRow);
  Value meanProjection = g.reduce(ReduceKind::Mean, g.mul(dy, y), perRow);
  Value inner = g.sub(g.sub(dy, meanGradient), g.mul(y, meanProjection));
  grads.push_back(g.mul(inner, inverse));
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

// The gradient ops take the forward op's attributes as they are.
void Conv2DOp::buildGradients(OpBuilder &builder, Value dy,
                              SmallVectorImpl<Value> &grads) {
  OperationState inputState(getLoc(), Conv2DBackwardInputOp::getOperationName(),
                            ValueRange{dy, getFilter()},
                            TypeRange{getInput().getType()},
                            (*this)->getAttrs());
  grads.push_back(builder.create(inputState)->getResult(0));
  OperationState filterState(
      getLoc(), Conv2DBackwardFilterOp::getOperationName(),
      ValueRange{getInput(), dy}, TypeRange{getFilter().getType()},
      (*this)->getAttrs());
  grads.push_back(builder.create(filterState)->getResult(0));
}

void PoolOp::buildGradients(OpBuilder &builder, Value dy,
                            SmallVectorImpl<Value> &grads) {
  OperationState state(getLoc(), PoolBackwardOp::getOperationName(),
                       ValueRange{getInput(), dy},
                       TypeRange{getInput().getType()}, (*this)->getAttrs());
  grads.push_back(builder.create(state)->getResult(0));
}

// Each chosen element passes its gradient back to where it came from:
// dx[.., d] = sum over j of dy[.., j] where indices[.., j] = d, an einsum of
// one_hot(indices) with dy; the elements not chosen get none. The indices
// are the top_k's own (with `indices`), so they pick the same elements.
void TopKOp::buildGradients(OpBuilder &builder, Value dy,
                            SmallVectorImpl<Value> &grads) {
  NamedTensorType input = typeOf(getInput()), result = getType();
  Type indexType = builder.getI32Type();
  Value indices =
      TopKOp::create(builder, getLoc(), result.withElementType(indexType),
                     getInput(), getDim(), getK(), getOutDim(), true);
  SmallVector<StringAttr> names(result.getDimNames());
  SmallVector<int64_t> shape(result.getShape());
  names.push_back(builder.getStringAttr(getDim()));
  shape.push_back(*input.getDimSize(getDim()));
  auto oneHotType = NamedTensorType::get(names, shape, input.getElementType());
  Value oneHot =
      OneHotOp::create(builder, getLoc(), oneHotType, indices, getDim());
  grads.push_back(
      EinsumOp::create(builder, getLoc(), input, ValueRange{oneHot, dy}));
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

// dtable[v, ..] = sum over the ids' indices i with ids[i] = v of dy[i, ..]:
// an einsum of one_hot(ids) with dy, which contracts the ids' dimensions
// (as Mesh-TensorFlow does), so that a split vocabulary stays split.
void GatherOp::buildGradients(OpBuilder &builder, Value dy,
                              SmallVectorImpl<Value> &grads) {
  NamedTensorType table = typeOf(getTable()), ids = typeOf(getIds());
  SmallVector<StringAttr> names(ids.getDimNames());
  SmallVector<int64_t> shape(ids.getShape());
  names.push_back(builder.getStringAttr(getDim()));
  shape.push_back(*table.getDimSize(getDim()));
  auto oneHotType = NamedTensorType::get(names, shape, table.getElementType());
  Value oneHot =
      OneHotOp::create(builder, getLoc(), oneHotType, getIds(), getDim());
  grads.push_back(
      EinsumOp::create(builder, getLoc(), table, ValueRange{oneHot, dy}));
  grads.push_back(Value());
}

//===----------------------------------------------------------------------===//
// Shape ops: each gradient undoes the op on dy.
//===----------------------------------------------------------------------===//

void RenameOp::buildGradients(OpBuilder &builder, Value dy,
                              SmallVectorImpl<Value> &grads) {
  grads.push_back(
      RenameOp::create(builder, getLoc(), getInput().getType(), dy));
}

void ReshapeOp::buildGradients(OpBuilder &builder, Value dy,
                               SmallVectorImpl<Value> &grads) {
  grads.push_back(
      ReshapeOp::create(builder, getLoc(), getInput().getType(), dy));
}

void TransposeOp::buildGradients(OpBuilder &builder, Value dy,
                                 SmallVectorImpl<Value> &grads) {
  grads.push_back(
      TransposeOp::create(builder, getLoc(), getInput().getType(), dy));
}

// The slice's gradient is dy padded with zeros back to the input's size.
void SliceOp::buildGradients(OpBuilder &builder, Value dy,
                             SmallVectorImpl<Value> &grads) {
  NamedTensorType input = typeOf(getInput());
  SmallVector<int64_t> high;
  for (auto [dim, start] : llvm::zip(getDims(), getStarts())) {
    StringRef name = cast<StringAttr>(dim).getValue();
    high.push_back(*input.getDimSize(name) - start -
                   *getType().getDimSize(name));
  }
  grads.push_back(PadOp::create(builder, getLoc(), input, dy, getDims(),
                                builder.getDenseI64ArrayAttr(getStarts()),
                                builder.getDenseI64ArrayAttr(high),
                                builder.getF64FloatAttr(0.0)));
}

// Each input's gradient is its own stretch of dy along the joined dim.
void ConcatOp::buildGradients(OpBuilder &builder, Value dy,
                              SmallVectorImpl<Value> &grads) {
  int64_t offset = 0;
  ArrayAttr dims = builder.getStrArrayAttr({getDim()});
  for (Value input : getInputs()) {
    grads.push_back(SliceOp::create(builder, getLoc(), input.getType(), dy,
                                    dims, ArrayRef<int64_t>{offset}));
    offset += *typeOf(input).getDimSize(getDim());
  }
}

// The pad's gradient is the stretch of dy that holds the input.
void PadOp::buildGradients(OpBuilder &builder, Value dy,
                           SmallVectorImpl<Value> &grads) {
  grads.push_back(SliceOp::create(builder, getLoc(), getInput().getType(), dy,
                                  getDims(), getLow()));
}
