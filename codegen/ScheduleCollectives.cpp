//===- ScheduleCollectives.cpp - collectives early, their users late ------===//
//
// Implements tessel-schedule-collectives. tessel-lower-to-runtime starts a
// collective where it stands and waits for it right before its first user,
// so the ops in between hide its communication. This pass orders each
// function's ops to make that stretch long: a list schedule that keeps the
// ops' own order, except that a collective runs as soon as its operand is
// computed, and an op that uses the result of a collective not yet waited
// for runs only when no other op is ready (then the one whose collectives
// started first). A data-parallel step thus runs the rest of the backward
// pass while each gradient's all_reduce moves, and updates the parameters
// in the order their gradients arrive.
//
// Reordering changes no result: every op the lowering accepts computes its
// results (one, or a merged fused op's several) from its operands alone,
// and the ranks, which all run this program, start the collectives in the
// same order. A block with an op of no result or of a result that is not a
// tensor keeps its order.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "dialect/StartedCollectives.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include <optional>
#include <set>
#include <utility>

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELSCHEDULECOLLECTIVES
#include "codegen/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// The list schedule of one block's ops (its terminator stays last).
class CollectiveScheduler {
public:
  explicit CollectiveScheduler(Block &block) : block(block) {}

  /// Reorders the block; leaves a block with ops the lowering would not
  /// take (isLoweredAsOneCall) as it is.
  void run();

private:
  void makeReady(Operation *op);
  Operation *pickNext();
  void schedule(Operation *op);
  /// The latest start among the unwaited collectives `op` uses, or none.
  std::optional<unsigned> blockingStart(Operation *op) const;
  /// The block's ops that `op` uses (producersOf) or that use it.
  ArrayRef<Operation *> producersOf(Operation *op) const {
    auto found = producers.find(op);
    return found == producers.end() ? ArrayRef<Operation *>()
                                    : found->second.getArrayRef();
  }
  ArrayRef<Operation *> consumersOf(Operation *op) const {
    auto found = consumers.find(op);
    return found == consumers.end() ? ArrayRef<Operation *>()
                                    : found->second.getArrayRef();
  }

  Block &block;
  llvm::DenseMap<Operation *, unsigned> position;
  /// The block's ops each op uses (in its body too), and the reverse.
  llvm::DenseMap<Operation *, llvm::SmallSetVector<Operation *, 4>> producers,
      consumers;
  llvm::DenseMap<Operation *, unsigned> unscheduledProducers;
  /// Collectives started and not yet waited for: their start number.
  llvm::DenseMap<Operation *, unsigned> inFlight;
  unsigned starts = 0;
  /// Ready ops by their position; blocked ones by (blocking start,
  /// position), each blocked op's key in blockedKey.
  std::set<unsigned> readyCollectives, readyFree;
  std::set<std::pair<unsigned, unsigned>> readyBlocked;
  llvm::DenseMap<Operation *, unsigned> blockedKey;
  SmallVector<Operation *> ops, order;
};

std::optional<unsigned>
CollectiveScheduler::blockingStart(Operation *op) const {
  std::optional<unsigned> latest;
  for (Operation *producer : producersOf(op))
    if (auto start = inFlight.find(producer); start != inFlight.end())
      latest = std::max(latest.value_or(0), start->second);
  return latest;
}

void CollectiveScheduler::makeReady(Operation *op) {
  unsigned index = position.lookup(op);
  if (isStartedCollective(op)) {
    readyCollectives.insert(index);
  } else if (std::optional<unsigned> start = blockingStart(op)) {
    readyBlocked.insert({*start, index});
    blockedKey[op] = *start;
  } else {
    readyFree.insert(index);
  }
}

Operation *CollectiveScheduler::pickNext() {
  auto take = [&](std::set<unsigned> &ready) {
    unsigned index = *ready.begin();
    ready.erase(ready.begin());
    return ops[index];
  };
  if (!readyCollectives.empty())
    return take(readyCollectives);
  if (!readyFree.empty())
    return take(readyFree);
  auto [start, index] = *readyBlocked.begin();
  readyBlocked.erase(readyBlocked.begin());
  blockedKey.erase(ops[index]);
  return ops[index];
}

void CollectiveScheduler::schedule(Operation *op) {
  order.push_back(op);
  if (isStartedCollective(op)) {
    inFlight[op] = starts++;
  } else {
    // Running `op` waits for the collectives it uses: their other ready
    // users may be unblocked.
    for (Operation *producer : producersOf(op)) {
      if (!inFlight.erase(producer))
        continue;
      for (Operation *user : consumersOf(producer)) {
        auto key = blockedKey.find(user);
        if (key == blockedKey.end())
          continue;
        readyBlocked.erase({key->second, position.lookup(user)});
        blockedKey.erase(key);
        makeReady(user);
      }
    }
  }
  for (Operation *user : consumersOf(op))
    if (--unscheduledProducers[user] == 0)
      makeReady(user);
}

void CollectiveScheduler::run() {
  for (Operation &op : block.without_terminator()) {
    // A fused op merged with the one after it (tessel-merge-fused-outputs)
    // has several results; until 2026-11-29 this check took one, and the
    // CPU target's training steps, whose optimizer updates are merged, ran
    // their collectives where the partitioner wrote them, each waited for
    // right after its start. Ops are taken as the lowering takes them.
    if (!isLoweredAsOneCall(&op))
      return;
    position[&op] = ops.size();
    ops.push_back(&op);
  }
  for (Operation *op : ops) {
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands()) {
        Operation *def = operand.getDefiningOp();
        if (!def || def->getBlock() != &block || def == op)
          continue;
        producers[op].insert(def);
        consumers[def].insert(op);
      }
    });
    unscheduledProducers[op] = producersOf(op).size();
  }
  for (Operation *op : ops)
    if (unscheduledProducers.lookup(op) == 0)
      makeReady(op);
  while (!readyCollectives.empty() || !readyFree.empty() ||
         !readyBlocked.empty())
    schedule(pickNext());
  assert(order.size() == ops.size() && "every op is scheduled once");
  Operation *terminator = block.getTerminator();
  for (Operation *op : order)
    op->moveBefore(terminator);
}

struct TesselScheduleCollectivesPass
    : mlir::tessel::impl::TesselScheduleCollectivesBase<
          TesselScheduleCollectivesPass> {
  void runOnOperation() final {
    func::FuncOp func = getOperation();
    if (func.isExternal() || !func.getBody().hasOneBlock())
      return;
    CollectiveScheduler(func.getBody().front()).run();
  }
};

} // namespace
