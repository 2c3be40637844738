//===- FusionMembers.cpp - What the runtime's fused kernel computes -------===//

#include "passes/FusionMembers.h"

#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/SmallPtrSet.h"

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

bool mlir::tessel::isKernelSum(ReduceOp reduce) {
  Type summed =
      cast<NamedTensorType>(reduce.getInput().getType()).getElementType();
  return isFusibleSum(reduce) &&
         (summed.isF32() || summed.isBF16() || summed.isF16()) &&
         cast<NamedTensorType>(reduce.getType()).getElementType() == summed;
}

bool mlir::tessel::isSplatConstant(Value value) {
  Operation *op = value.getDefiningOp();
  return op && isa<ConstantOp>(op) && isFusibleElementwiseOp(op);
}

FusedOp mlir::tessel::startFusedOp(OpBuilder &builder, Operation *at,
                                   TypeRange types, ArrayRef<Value> inputs,
                                   IRMapping &mapping) {
  auto fused = FusedOp::create(builder, at->getLoc(), types, inputs);
  if (Attribute name = at->getAttr("tessel.name"))
    fused->setAttr("tessel.name", name);
  Block &body = fused.getBody().front();
  mapping.map(inputs, body.getArguments());
  builder.setInsertionPointToStart(&body);
  return fused;
}

FusedOp mlir::tessel::fuseOps(ArrayRef<Operation *> members, Operation *sum) {
  llvm::SmallPtrSet<Operation *, 16> inGroup(members.begin(), members.end());
  llvm::SetVector<Value> inputs;
  for (Operation *member : members)
    for (Value operand : member->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!(producer && inGroup.contains(producer)) &&
          !isSplatConstant(operand))
        inputs.insert(operand);
    }

  // The fused op stands where its last op stood: the sum, if there is one.
  Operation *last = sum ? sum : members.back();
  OpBuilder builder(last);
  IRMapping mapping;
  FusedOp fused =
      startFusedOp(builder, last, TypeRange{last->getResult(0).getType()},
                   inputs.getArrayRef(), mapping);
  for (Operation *member : members) {
    for (Value operand : member->getOperands())
      if (!mapping.contains(operand))
        mapping.map(operand,
                    builder.clone(*operand.getDefiningOp())->getResult(0));
    builder.clone(*member, mapping);
  }
  if (sum)
    builder.clone(*sum, mapping);
  YieldOp::create(builder, last->getLoc(), mapping.lookup(last->getResult(0)));

  last->getResult(0).replaceAllUsesWith(fused.getResult(0));
  if (sum)
    sum->erase();
  for (Operation *member : llvm::reverse(members))
    member->erase();
  return fused;
}
