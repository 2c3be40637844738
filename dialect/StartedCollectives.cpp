//===- StartedCollectives.cpp - where a lowered block waits and frees -----===//

#include "dialect/StartedCollectives.h"

using namespace mlir;
using namespace mlir::tessel;

bool mlir::tessel::isLoweredAsOneCall(Operation *op) {
  bool fused = isa<FusedOp>(op);
  return op->getNumResults() != 0 && (op->getNumResults() == 1 || fused) &&
         (op->getNumRegions() == 0 || fused) &&
         llvm::all_of(op->getResultTypes(), llvm::IsaPred<NamedTensorType>) &&
         llvm::all_of(op->getOperandTypes(), llvm::IsaPred<NamedTensorType>);
}

BufferLifetimes mlir::tessel::bufferLifetimes(Block &body,
                                              bool startCollectives) {
  BufferLifetimes lifetimes;
  Operation *terminator = body.getTerminator();
  if (startCollectives)
    for (Operation &op : body.without_terminator()) {
      if (!isStartedCollective(&op))
        continue;
      Operation *first = terminator;
      for (Operation *user : op.getUsers())
        if (user->isBeforeInBlock(first))
          first = user;
      lifetimes.waitBefore[&op] = first;
      lifetimes.waitsBefore[first].push_back(&op);
    }
  // A started collective uses its operand until its wait, so the operand
  // lives at least until the collective's first user (or, when that is the
  // terminator, until the waits there).
  for (Operation &op : body.without_terminator())
    for (Value value : op.getResults()) {
      Operation *last = nullptr;
      bool returned = false, waitedAtReturn = false;
      for (Operation *user : value.getUsers()) {
        returned |= user == terminator;
        Operation *use = lifetimes.waitBefore.lookup(user);
        if (!use) {
          use = user;
        } else if (use == terminator) {
          waitedAtReturn = true;
          continue;
        }
        if (!last || last->isBeforeInBlock(use))
          last = use;
      }
      if (returned)
        continue;
      // A started collective's result is written until its wait.
      if (!last && lifetimes.waitBefore.count(&op))
        waitedAtReturn = true;
      if (waitedAtReturn)
        lifetimes.deadAtReturn.push_back(value);
      else
        lifetimes.deadAfter[last ? last : &op].push_back(value);
    }
  // A rename or reshape whose operand dies with it keeps the operand's
  // buffer: the realistic Transformer renamed 16 tensors of 1 MiB a step
  // (keys and values, and their gradients) by copying them, 1.5 ms.
  for (Operation &op : body.without_terminator()) {
    if (!isa<RenameOp, ReshapeOp>(op))
      continue;
    // The same bytes in the same order (a layout attribute names the mesh
    // axes of dims, not where a rank's block lies).
    auto operandType = cast<NamedTensorType>(op.getOperand(0).getType());
    auto resultType = cast<NamedTensorType>(op.getResult(0).getType());
    if (operandType.getElementType() != resultType.getElementType() ||
        operandType.getNumElements() != resultType.getNumElements())
      continue;
    auto dead = lifetimes.deadAfter.find(&op);
    if (dead == lifetimes.deadAfter.end())
      continue;
    auto operand = llvm::find(dead->second, op.getOperand(0));
    if (operand == dead->second.end())
      continue;
    dead->second.erase(operand);
    lifetimes.reusesOperand.insert(&op);
  }
  return lifetimes;
}
