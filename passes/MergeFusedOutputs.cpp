//===- MergeFusedOutputs.cpp - a fused op and its fused consumer as one ---===//
//
// Implements tessel-merge-fused-outputs. tessel-fuse-elementwise ends a
// chain wherever a value is used outside it: an optimizer's new moments
// (returned as the step's new state, and read by the parameter's update)
// are fused ops of their own, each a pass over the gradient and its old
// moment, and the update reads them back in a third. Merging a fused op
// into the fused op after it that reads its value makes one pass that
// writes every result: AdamW reads the gradient, both moments and the
// parameter once and writes the three new values once, 28 bytes an element
// instead of 40, in one runtime call instead of three.
//
// An element-wise op that the fusion left alone (a group of one, its value
// used outside any chain) takes part as a fused op of its own: a bias
// added before GELU, whose sum GELU's gradient reads again, is then
// computed in GELU's pass, which writes both.
//
// A consumer may also end in a sum, or be a sum the fusion left apart (of
// a value used outside any chain: a bias's gradient, summed from the
// gradient that the next einsums read too; a batch norm's mean of its
// input): the merged op sums in the pass that writes the producer's values,
// and the sum is its first result. A producer ends in no sum.
//
// Only the op right before the consumer merges (but for ops in between
// that make only constants and scalars), so no value lives longer than
// before but across those: the producer's inputs died at the producer and
// now die at the merged op, with nothing larger than a scalar allocated in
// between. Every result of the producer must walk as the consumer's
// computed values do (its first result's dims in its order, or its summed
// value's), since the kernel writes each result's tile where it computes
// the consumer's.
//
//===----------------------------------------------------------------------===//

#include "passes/FusionMembers.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"

#include "llvm/ADT/SetVector.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELMERGEFUSEDOUTPUTS
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The same dims and sizes in the same order (element types aside).
bool sameWalk(Type a, Type b) {
  auto first = cast<NamedTensorType>(a), second = cast<NamedTensorType>(b);
  return first.getDimNames() == second.getDimNames() &&
         first.getShape() == second.getShape();
}

/// Whether `op` makes nothing but constants and scalars: a merge may keep
/// a producer's inputs alive across it (an optimizer's bias corrections,
/// cast to f32 right before the first update that reads them).
bool makesOnlyScalars(Operation *op) {
  return isa<ConstantOp>(op) ||
         llvm::all_of(op->getResultTypes(), [](Type type) {
           auto tensor = dyn_cast<NamedTensorType>(type);
           return tensor && tensor.getNumElements() <= 1;
         });
}

/// Whether `op` can be merged into the op after it: a fused op without a
/// sum, or an element-wise op that tessel-fuse-elementwise left alone (a
/// group of one, its value used outside any chain: a bias added before
/// GELU, whose sum GELU's gradient reads again) with a float result of
/// more than one element, which becomes a fused op of its own to merge.
bool canProduce(Operation *op) {
  if (auto fused = dyn_cast<FusedOp>(op))
    return !getFusedSum(fused);
  if (!isFusionMember(op) || !isComputedFloat(op->getResult(0)))
    return false;
  return cast<NamedTensorType>(op->getResult(0).getType()).getNumElements() > 1;
}

/// Whether `op` can absorb the op before it: one that can be merged, a
/// fused op that ends in a sum, or such a sum on its own.
bool canConsume(Operation *op) {
  if (isa<FusedOp>(op))
    return true;
  if (auto reduce = dyn_cast<ReduceOp>(op))
    return isKernelSum(reduce);
  return canProduce(op);
}

/// The type of the values `consumer` computes element by element: its
/// first result's, or the value it sums.
Type walkedType(Operation *consumer) {
  if (auto reduce = dyn_cast<ReduceOp>(consumer))
    return reduce.getInput().getType();
  if (auto fused = dyn_cast<FusedOp>(consumer))
    if (ReduceOp sum = getFusedSum(fused))
      return sum.getInput().getType();
  return consumer->getResult(0).getType();
}

/// The op that `consumer` can absorb: the op right before it but for ops
/// that make only constants and scalars and do not read it, one that can
/// be merged, whose results `consumer` reads and which walk as the values
/// `consumer` computes do.
Operation *mergeableProducer(Operation *consumer) {
  if (!canConsume(consumer))
    return nullptr;
  Operation *producer = consumer->getPrevNode();
  while (producer && !canProduce(producer) && makesOnlyScalars(producer))
    producer = producer->getPrevNode();
  if (!producer || !canProduce(producer))
    return nullptr;
  // The merged op stands where the consumer does: every other user of the
  // producer's results must come after it.
  if (llvm::any_of(producer->getUsers(), [&](Operation *user) {
        return user != consumer && user->isBeforeInBlock(consumer);
      }))
    return nullptr;
  bool reads = llvm::any_of(consumer->getOperands(), [&](Value operand) {
    return operand.getDefiningOp() == producer;
  });
  Type walked = walkedType(consumer);
  if (!reads || !llvm::all_of(producer->getResultTypes(), [&](Type type) {
        return sameWalk(type, walked);
      }))
    return nullptr;
  return producer;
}

/// `op` (not a sum) as a fused op: itself, or a fused op of it alone in
/// its place (its splat constant operands copied into the body, as the
/// fusion does).
FusedOp asFused(Operation *op) {
  if (auto fused = dyn_cast<FusedOp>(op))
    return fused;
  return fuseOps({op}, /*sum=*/nullptr);
}

/// Clones `from`'s body ops into the builder's block, its arguments read as
/// `arguments`; returns the values it yields.
SmallVector<Value> cloneBody(OpBuilder &builder, FusedOp from,
                             ValueRange arguments) {
  Block &body = from.getBody().front();
  IRMapping mapping;
  mapping.map(body.getArguments(), arguments);
  for (Operation &op : body.without_terminator())
    builder.clone(op, mapping);
  SmallVector<Value> yielded;
  for (Value value : cast<YieldOp>(body.getTerminator()).getValues())
    yielded.push_back(mapping.lookupOrDefault(value));
  return yielded;
}

/// Replaces `producer` and `consumer` (a fused op, or a sum) by one fused
/// op at the consumer's place: the producer's body, then the consumer's
/// (or the sum) reading the producer's values; the consumer's results,
/// then those of the producer's that something besides the consumer reads
/// (a value only the consumer read is never stored).
FusedOp merge(FusedOp producer, Operation *consumer) {
  llvm::SetVector<Value> inputs;
  inputs.insert_range(producer.getInputs());
  for (Value input : consumer->getOperands())
    if (input.getDefiningOp() != producer.getOperation())
      inputs.insert(input);
  SmallVector<OpResult> kept;
  for (OpResult result : producer->getResults())
    if (llvm::any_of(result.getUsers(),
                     [&](Operation *user) { return user != consumer; }))
      kept.push_back(result);
  SmallVector<Type> types(consumer->getResultTypes());
  for (OpResult result : kept)
    types.push_back(result.getType());

  OpBuilder builder(consumer);
  IRMapping argumentOf;
  FusedOp merged =
      startFusedOp(builder, consumer, types, inputs.getArrayRef(), argumentOf);

  SmallVector<Value> producerArguments;
  for (Value input : producer.getInputs())
    producerArguments.push_back(argumentOf.lookup(input));
  SmallVector<Value> produced = cloneBody(builder, producer, producerArguments);

  SmallVector<Value> consumerArguments;
  for (Value input : consumer->getOperands())
    consumerArguments.push_back(
        input.getDefiningOp() == producer.getOperation()
            ? produced[cast<OpResult>(input).getResultNumber()]
            : argumentOf.lookup(input));
  SmallVector<Value> yielded;
  if (auto fusedConsumer = dyn_cast<FusedOp>(consumer)) {
    yielded = cloneBody(builder, fusedConsumer, consumerArguments);
  } else {
    IRMapping sumOf;
    sumOf.map(consumer->getOperands(), consumerArguments);
    yielded.push_back(builder.clone(*consumer, sumOf)->getResult(0));
  }
  for (OpResult result : kept)
    yielded.push_back(produced[result.getResultNumber()]);
  YieldOp::create(builder, consumer->getLoc(), yielded);

  unsigned consumerResults = consumer->getNumResults();
  consumer->replaceAllUsesWith(merged.getResults().take_front(consumerResults));
  consumer->erase();
  for (auto [index, result] : llvm::enumerate(kept))
    result.replaceAllUsesWith(merged.getResult(consumerResults + index));
  producer->erase();
  return merged;
}

struct MergeFusedOutputsPass
    : mlir::tessel::impl::TesselMergeFusedOutputsBase<MergeFusedOutputsPass> {
  using TesselMergeFusedOutputsBase::TesselMergeFusedOutputsBase;

  void runOnOperation() final {
    func::FuncOp func = getOperation();
    if (func.isExternal())
      return;
    // In program order: a merge replaces the op and the one before it, so
    // the ops after it are still in the list.
    SmallVector<Operation *> candidates;
    for (Operation &op : func.getBody().front())
      if (canConsume(&op))
        candidates.push_back(&op);
    for (Operation *consumer : candidates)
      while (Operation *producer = mergeableProducer(consumer)) {
        FusedOp fusedProducer = asFused(producer);
        if (!isa<ReduceOp>(consumer))
          consumer = asFused(consumer);
        consumer = merge(fusedProducer, consumer);
      }
  }
};

} // namespace
