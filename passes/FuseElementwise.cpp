//===- FuseElementwise.cpp - chains of element-wise ops as one op ---------===//
//
// Implements tessel-fuse-elementwise. Each op of a rank's program is one
// runtime call that reads its operands from memory and writes its result
// back; a chain of element-wise ops (an optimizer's update, GELU and its
// gradient, a layer norm's backward pass) pays that per op, though each
// element of the chain's result depends only on the same element of its
// inputs. The pass groups such chains into tessel.fused ops, which the
// runtime computes in one pass over the data.
//
// Values may be f32, bf16 or f16 (a mixed-precision step's chains, and the
// casts between those types: the runtime computes them in f32 registers and
// rounds each op's value to its type), with i1 conditions.
//
// Groups are grown backwards from a root: an element-wise op whose result
// is a float. A producer joins its consumer's group when it is element-wise
// too, has the root's dimensions (a smaller producer, broadcast into the
// root, would be recomputed for every element it is broadcast to), and
// every use of its result is inside the group (so no intermediate value
// has to be stored). Splat constants are copied into every body that uses
// them. A group of one op stays that op, except where a value is bf16 or
// f16: the fused kernel is the runtime's vectorized loop for every
// element-wise op in those types (oneDNN has no GELU, erf, log, sin or cos
// to offer, nor comparisons and select, and f16 hardly anything).
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELFUSEELEMENTWISE
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// f32, bf16 or f16: the types the runtime's fused kernel computes.
bool isComputedFloat(Value value) {
  Type element = cast<NamedTensorType>(value.getType()).getElementType();
  return element.isF32() || element.isBF16() || element.isF16();
}

bool isNarrowFloat(Value value) {
  Type element = cast<NamedTensorType>(value.getType()).getElementType();
  return element.isBF16() || element.isF16();
}

bool isI1(Value value) {
  return cast<NamedTensorType>(value.getType()).getElementType().isInteger(1);
}

/// Whether the runtime's fused kernel computes `op`: an element-wise op
/// or a cast on float values (a comparison of floats into i1, a select on
/// an i1 condition). Constants are not members: they are copied into
/// bodies.
bool isFusionMember(Operation *op) {
  if (!isFusibleElementwiseOp(op) || isa<ConstantOp>(op))
    return false;
  if (auto compare = dyn_cast<CompareOp>(op))
    return isComputedFloat(compare.getLhs()) &&
           isComputedFloat(compare.getRhs());
  if (auto select = dyn_cast<SelectOp>(op))
    return isI1(select.getCondition()) &&
           isComputedFloat(select.getOnTrue()) &&
           isComputedFloat(select.getOnFalse()) &&
           isComputedFloat(select.getResult());
  return llvm::all_of(op->getOperands(), isComputedFloat) &&
         isComputedFloat(op->getResult(0));
}

bool sameDimensions(Value a, Value b) {
  return haveSameDimensionSet(cast<NamedTensorType>(a.getType()),
                              cast<NamedTensorType>(b.getType()));
}

bool isSplatConstant(Value value) {
  Operation *op = value.getDefiningOp();
  return op && isa<ConstantOp>(op) && isFusibleElementwiseOp(op);
}

/// The ops of one fused group: its root and the producers that joined,
/// in program order once the group is complete.
struct Group {
  Operation *root;
  llvm::SmallSetVector<Operation *, 16> members;
};

/// Grows the group of `root` over its producers, as the file comment says.
Group growGroup(Operation *root, const llvm::DenseSet<Operation *> &taken) {
  Group group{root, {}};
  group.members.insert(root);
  SmallVector<Operation *> worklist = {root};
  while (!worklist.empty()) {
    Operation *consumer = worklist.pop_back_val();
    for (Value operand : consumer->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!producer || group.members.contains(producer) ||
          taken.contains(producer) || !isFusionMember(producer) ||
          !sameDimensions(producer->getResult(0), root->getResult(0)))
        continue;
      // A producer whose other consumers are not in the group yet is looked
      // at again when the last of them joins.
      if (!llvm::all_of(producer->getUsers(), [&](Operation *user) {
            return group.members.contains(user);
          }))
        continue;
      group.members.insert(producer);
      worklist.push_back(producer);
    }
  }
  SmallVector<Operation *> inOrder = group.members.takeVector();
  llvm::sort(inOrder,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  group.members.insert_range(inOrder);
  return group;
}

/// Replaces the group by one tessel.fused op at the root's place.
void fuseGroup(const Group &group) {
  Operation *root = group.root;
  llvm::SetVector<Value> inputs;
  for (Operation *member : group.members)
    for (Value operand : member->getOperands()) {
      Operation *producer = operand.getDefiningOp();
      if (!(producer && group.members.contains(producer)) &&
          !isSplatConstant(operand))
        inputs.insert(operand);
    }

  OpBuilder builder(root);
  auto fused =
      FusedOp::create(builder, root->getLoc(), root->getResult(0).getType(),
                      inputs.getArrayRef());
  if (Attribute name = root->getAttr("tessel.name"))
    fused->setAttr("tessel.name", name);
  Block &body = fused.getBody().front();
  IRMapping mapping;
  mapping.map(inputs.getArrayRef(), body.getArguments());
  builder.setInsertionPointToStart(&body);
  for (Operation *member : group.members) {
    for (Value operand : member->getOperands())
      if (!mapping.contains(operand))
        mapping.map(operand,
                    builder.clone(*operand.getDefiningOp())->getResult(0));
    builder.clone(*member, mapping);
  }
  YieldOp::create(builder, root->getLoc(), mapping.lookup(root->getResult(0)));

  root->getResult(0).replaceAllUsesWith(fused.getResult());
  for (Operation *member : llvm::reverse(group.members))
    member->erase();
}

struct FuseElementwisePass
    : mlir::tessel::impl::TesselFuseElementwiseBase<FuseElementwisePass> {
  using TesselFuseElementwiseBase::TesselFuseElementwiseBase;

  void runOnOperation() final {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &block = func.getBody().front();
    // Walking backwards, every consumer of an op has been seen before the
    // op itself, so a group never takes an op whose consumer forms a later
    // group.
    llvm::DenseSet<Operation *> taken;
    SmallVector<Group> groups;
    for (Operation &op : llvm::reverse(block)) {
      if (taken.contains(&op) || !isFusionMember(&op) ||
          !isComputedFloat(op.getResult(0)))
        continue;
      Group group = growGroup(&op, taken);
      if (group.members.size() < 2 &&
          !llvm::any_of(op.getOperands(), isNarrowFloat) &&
          !isNarrowFloat(op.getResult(0)))
        continue;
      for (Operation *member : group.members)
        taken.insert(member);
      groups.push_back(std::move(group));
    }
    for (const Group &group : groups)
      fuseGroup(group);
    // Constants left without a use (those whose every use went into
    // bodies, and any that had none).
    for (Operation &op : llvm::make_early_inc_range(block))
      if (isa<ConstantOp>(op) && op.use_empty())
        op.erase();
  }
};

} // namespace
