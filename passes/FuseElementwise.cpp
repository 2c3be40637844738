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
// A sum (or mean) of an element-wise value into its own float type (f32,
// or a mixed-precision step's bf16 or f16) over all its dims, or over
// the dims around a run it keeps in order (a gradient's squared norm,
// sum(g * g), which the global norm takes of every gradient; a bias's
// gradient summed over the batch; a row mean; a batch norm's sums over
// batch and space, the channels kept), ends the group of that value: the fused
// op yields the sum, computed as the body's values are, so the value is never
// stored and its elements are read once. The kernel sums in double and
// rounds once (to f32, and from there to a narrow type). Where the value of a
// sum over every dim has other uses (Adam's second moment takes the same g * g,
// which CSE made one op), the sum gets a copy of the op that makes it, computed
// again in its body: one more read of g instead of writing g * g and reading it
// twice. A partial sum of a shared value is left as it is: copying the op that
// makes the value would take its producers from the group they form with it
// (tried on the realistic Transformer: 20 more unfused adds and 9 MiB more).
//
// First, an operand made by tessel.broadcast of an op that broadcasts its
// operands by name (the binary ops, compare and select, fused or not) is
// read as the broadcast's input, and a broadcast left without a use goes:
// the spread copy (a batch norm's gradient of a mean, over every element
// of an activation) is never written, and the consumer reads the small
// tensor at each element's index instead of the copy.
//
//===----------------------------------------------------------------------===//

#include "passes/FusionMembers.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

#include <cassert>

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELFUSEELEMENTWISE
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

bool sameDimensions(Value a, Value b) {
  return haveSameDimensionSet(cast<NamedTensorType>(a.getType()),
                              cast<NamedTensorType>(b.getType()));
}

/// The ops of one fused group: its root and the producers that joined,
/// in program order once the group is complete, and the sum of the root's
/// value that ends it, if any.
struct Group {
  Operation *root;
  llvm::SmallSetVector<Operation *, 16> members;
  Operation *sum = nullptr;
};

/// Whether the fused kernel can end a group in `reduce`: a sum or mean of
/// a float value into its own type keeping a run of its dims in order, the
/// value made by an element-wise op.
bool canEndAGroup(ReduceOp reduce) {
  Operation *producer = reduce.getInput().getDefiningOp();
  return isKernelSum(reduce) && producer && isFusionMember(producer);
}

/// The element-wise op whose value `reduce` sums, where the fused kernel
/// can end its group in that sum: the value's only use is `reduce`.
Operation *summedGroupRoot(ReduceOp reduce,
                           const llvm::DenseSet<Operation *> &taken) {
  if (!canEndAGroup(reduce))
    return nullptr;
  Operation *producer = reduce.getInput().getDefiningOp();
  if (taken.contains(producer) || !producer->hasOneUse())
    return nullptr;
  return producer;
}

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

/// Whether `op` reads each operand at the result's index by name, so that
/// an operand lacking some of the result's dims is broadcast along them.
bool broadcastsOperandsByName(Operation *op) {
  return isa<AddOp, SubOp, MulOp, DivOp, MaxOp, MinOp, PowOp, CompareOp,
             SelectOp>(op);
}

/// Whether every dim of `use`'s owner's result still comes from one of its
/// operands once `use` reads `replacement`: a dim only the broadcast adds
/// (a scalar spread into a tensor) must stay spread.
bool keepsEveryResultDim(OpOperand &use, Value replacement) {
  Operation *owner = use.getOwner();
  llvm::SmallDenseSet<StringAttr> covered;
  for (OpOperand &operand : owner->getOpOperands()) {
    Value value = &operand == &use ? replacement : operand.get();
    for (StringAttr dim : cast<NamedTensorType>(value.getType()).getDimNames())
      covered.insert(dim);
  }
  auto result = cast<NamedTensorType>(owner->getResult(0).getType());
  return llvm::all_of(result.getDimNames(),
                      [&](StringAttr dim) { return covered.contains(dim); });
}

/// Points every use of a broadcast by such an op at the broadcast's input,
/// and erases the broadcasts left without a use (see the file comment).
void readBroadcastInputs(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto broadcast = dyn_cast<BroadcastOp>(op);
    if (!broadcast)
      continue;
    for (OpOperand &use : llvm::make_early_inc_range(broadcast->getUses()))
      if (broadcastsOperandsByName(use.getOwner()) &&
          keepsEveryResultDim(use, broadcast.getInput()))
        use.set(broadcast.getInput());
    if (broadcast->use_empty())
      broadcast->erase();
  }
}

/// Replaces the group by one tessel.fused op at the root's place (its
/// last member: every other member is a producer of it).
void fuseGroup(const Group &group) {
  assert(group.members.back() == group.root && "members in program order");
  fuseOps(group.members.getArrayRef(), group.sum);
}

struct FuseElementwisePass
    : mlir::tessel::impl::TesselFuseElementwiseBase<FuseElementwisePass> {
  using TesselFuseElementwiseBase::TesselFuseElementwiseBase;

  void runOnOperation() final {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    Block &block = func.getBody().front();
    readBroadcastInputs(block);
    // Walking backwards, every consumer of an op has been seen before the
    // op itself, so a group never takes an op whose consumer forms a later
    // group.
    // Each sum over every dim its own copy of a shared element-wise
    // producer (see the file comment), so that the sum and the producer's
    // other users fuse apart.
    for (Operation &op : block)
      if (auto reduce = dyn_cast<ReduceOp>(op);
          reduce && canEndAGroup(reduce) &&
          cast<NamedTensorType>(reduce.getType()).getRank() == 0 &&
          !reduce.getInput().getDefiningOp()->hasOneUse()) {
        OpBuilder builder(reduce);
        reduce.getInputMutable().assign(
            builder.clone(*reduce.getInput().getDefiningOp())->getResult(0));
      }
    llvm::DenseSet<Operation *> taken;
    SmallVector<Group> groups;
    for (Operation &op : llvm::reverse(block)) {
      if (auto reduce = dyn_cast<ReduceOp>(op)) {
        // Seen before its producer, which the group claims.
        if (Operation *root = summedGroupRoot(reduce, taken)) {
          Group group = growGroup(root, taken);
          group.sum = reduce;
          for (Operation *member : group.members)
            taken.insert(member);
          groups.push_back(std::move(group));
        }
        continue;
      }
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
