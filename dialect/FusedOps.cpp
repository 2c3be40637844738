//===- FusedOps.cpp - tessel.fused and its body ---------------------------===//

#include "dialect/TesselDialect.h"

using namespace mlir;
using namespace mlir::tessel;

#define GET_OP_CLASSES
#include "dialect/TesselFusedOps.cpp.inc"

bool mlir::tessel::isFusibleElementwiseOp(Operation *op) {
  if (auto constant = dyn_cast<ConstantOp>(op)) {
    Attribute value = constant.getValue();
    if (auto dense = dyn_cast<DenseElementsAttr>(value))
      return dense.isSplat();
    return isa<FloatAttr, IntegerAttr>(value);
  }
  return isa<NegOp, AbsOp, ExpOp, LogOp, SqrtOp, RsqrtOp, TanhOp, SigmoidOp,
             ReluOp, GeluOp, ErfOp, SinOp, CosOp, AddOp, SubOp, MulOp, DivOp,
             MaxOp, MinOp, PowOp, CompareOp, SelectOp, CastOp>(op);
}

bool mlir::tessel::haveSameDimensionSet(NamedTensorType a, NamedTensorType b) {
  if (a.getRank() != b.getRank())
    return false;
  for (auto [name, size] : llvm::zip(a.getDimNames(), a.getShape()))
    if (b.getDimSize(name.getValue()) != size)
      return false;
  return true;
}

void FusedOp::build(OpBuilder &builder, OperationState &state,
                    TypeRange resultTypes, ValueRange inputs) {
  state.addOperands(inputs);
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  Block *block = new Block();
  body->push_back(block);
  for (Value input : inputs)
    block->addArgument(input.getType(), input.getLoc());
}

bool mlir::tessel::isFusibleSum(ReduceOp reduce) {
  if (reduce.getKind() != ReduceKind::Sum &&
      reduce.getKind() != ReduceKind::Mean)
    return false;
  auto input = cast<NamedTensorType>(reduce.getInput().getType());
  auto result = cast<NamedTensorType>(reduce.getType());
  ArrayRef<StringAttr> kept = result.getDimNames();
  ArrayRef<StringAttr> all = input.getDimNames();
  if (kept.size() > all.size())
    return false;
  // The dims kept are a run of the input's, in its order: leading, ending
  // them, or between summed dims (a batch norm's channels).
  for (size_t offset = 0; offset + kept.size() <= all.size(); ++offset)
    if (kept == all.slice(offset, kept.size()))
      return true;
  return false;
}

ReduceOp mlir::tessel::getFusedSum(FusedOp fused) {
  Block &block = fused.getBody().front();
  if (block.empty())
    return {};
  auto yield = dyn_cast<YieldOp>(block.back());
  if (!yield || yield.getValues().empty())
    return {};
  return yield.getValues().front().getDefiningOp<ReduceOp>();
}

LogicalResult FusedOp::verify() {
  Block &block = getBody().front();
  if (block.getNumArguments() != getInputs().size())
    return emitOpError() << "has " << getInputs().size()
                         << " inputs but its body has "
                         << block.getNumArguments() << " arguments";
  for (auto [index, input, argument] :
       llvm::enumerate(getInputs(), block.getArguments()))
    if (input.getType() != argument.getType())
      return emitOpError() << "input " << index << " has type "
                           << input.getType() << " but body argument " << index
                           << " has " << argument.getType();
  if (getResults().empty())
    return emitOpError() << "has no result";
  auto resultType = cast<NamedTensorType>(getResult(0).getType());
  // The element-wise ops compute the result's elements, or, where the body
  // ends in a sum, the elements of the value summed.
  NamedTensorType computed = resultType;
  ReduceOp sum = getFusedSum(*this);
  if (sum) {
    if (!isFusibleSum(sum))
      return sum.emitOpError()
             << "in a tessel.fused body must be a sum or mean that keeps a "
                "run of its input's dimensions in their order";
    computed = cast<NamedTensorType>(sum.getInput().getType());
  }
  // Every result after the first is written as the body walks the
  // elements it computes.
  for (auto [index, result] : llvm::enumerate(getResults().drop_front())) {
    auto type = cast<NamedTensorType>(result.getType());
    if (type.getDimNames() != computed.getDimNames() ||
        type.getShape() != computed.getShape())
      return emitOpError() << "result " << index + 1 << " has type " << type
                           << ", whose dimensions are not those of "
                           << (sum ? "the value summed " : "result 0 ")
                           << computed << " in its order";
  }
  for (Operation &op : block) {
    if (isa<YieldOp>(op) || &op == sum.getOperation())
      continue;
    if (!isFusibleElementwiseOp(&op))
      return op.emitOpError()
             << "cannot be part of a tessel.fused body: only element-wise "
                "ops, splat constants and a last sum can";
    if (isa<ConstantOp>(op))
      continue;
    auto type = cast<NamedTensorType>(op.getResult(0).getType());
    if (!haveSameDimensionSet(type, computed))
      return op.emitOpError()
             << "in a tessel.fused body has type " << type
             << ", whose dimensions are not those of the "
             << (sum ? "value the body sums " : "fused result ") << computed;
  }
  auto yield = block.empty() ? YieldOp() : dyn_cast<YieldOp>(block.back());
  if (!yield)
    return emitOpError() << "body must end with tessel.yield";
  if (yield.getValues().size() != getNumResults())
    return emitOpError() << "yields " << yield.getValues().size()
                         << " values but has " << getNumResults() << " results";
  for (auto [index, value, result] :
       llvm::enumerate(yield.getValues(), getResults()))
    if (value.getType() != result.getType())
      return emitOpError() << "yields " << value.getType() << " as value "
                           << index << " but its result " << index
                           << " has type " << result.getType();
  return success();
}
