//===- FusionMembers.cpp - What the runtime's fused kernel computes -------===//

#include "passes/FusionMembers.h"

using namespace mlir;
using namespace mlir::tessel;

static bool isI1(Value value) {
  return cast<NamedTensorType>(value.getType()).getElementType().isInteger(1);
}

bool mlir::tessel::isComputedFloat(Value value) {
  Type element = cast<NamedTensorType>(value.getType()).getElementType();
  return element.isF32() || element.isBF16() || element.isF16();
}

bool mlir::tessel::isNarrowFloat(Value value) {
  Type element = cast<NamedTensorType>(value.getType()).getElementType();
  return element.isBF16() || element.isF16();
}

bool mlir::tessel::isFusionMember(Operation *op) {
  if (!isFusibleElementwiseOp(op) || isa<ConstantOp>(op))
    return false;
  if (auto compare = dyn_cast<CompareOp>(op))
    return isComputedFloat(compare.getLhs()) &&
           isComputedFloat(compare.getRhs());
  if (auto select = dyn_cast<SelectOp>(op))
    return isI1(select.getCondition()) && isComputedFloat(select.getOnTrue()) &&
           isComputedFloat(select.getOnFalse()) &&
           isComputedFloat(select.getResult());
  return llvm::all_of(op->getOperands(), isComputedFloat) &&
         isComputedFloat(op->getResult(0));
}

bool mlir::tessel::isSplatConstant(Value value) {
  Operation *op = value.getDefiningOp();
  return op && isa<ConstantOp>(op) && isFusibleElementwiseOp(op);
}
