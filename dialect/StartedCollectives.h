//===- StartedCollectives.h - collectives that run while others compute --===//
//
// The mesh-level collectives the runtime has a non-blocking form of
// (tessel_rt_start, tessel_rt_wait): tessel-lower-to-runtime starts them
// where they stand and waits for them before their first user,
// tessel-schedule-collectives moves them early and their users late, and
// the cost model (analysis/StepTime) counts the time they move while the
// rank computes as hidden. all_to_all and collective_permute block.
//
// bufferLifetimes is the one account of where the compiled program waits
// for each started collective, frees each buffer and lets a rename or
// reshape keep its operand's buffer: the lowering emits it, and the memory
// model (analysis/RuntimeMemory) replays it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_STARTEDCOLLECTIVES_H
#define TESSEL_DIALECT_STARTEDCOLLECTIVES_H

#include "dialect/TesselDialect.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallVector.h"

namespace mlir::tessel {

/// Whether tessel-lower-to-runtime lowers `op` as one runtime call: tensor
/// operands and results, one result and no region but for a fused op, whose
/// body is part of its descriptor and which alone may have several results.
bool isLoweredAsOneCall(Operation *op);

inline bool isStartedCollective(Operation *op) {
  return isa<AllReduceOp, AllGatherOp, ReduceScatterOp, HaloExchangeOp>(op);
}

/// Where a block's op results live, as tessel-lower-to-runtime lowers the
/// block: each buffer is allocated before its op and freed after the op
/// that uses it last; the terminator's operands are never freed. With
/// started collectives, each is waited for right before its first user
/// (the terminator when only returned), and uses its operands (and writes
/// its result) until then.
struct BufferLifetimes {
  /// The op before which each started collective is waited for.
  llvm::DenseMap<Operation *, Operation *> waitBefore;
  /// The started collectives waited for before each op, in block order.
  llvm::DenseMap<Operation *, llvm::SmallVector<Operation *>> waitsBefore;
  /// The results whose buffers are freed after each op.
  llvm::DenseMap<Operation *, llvm::SmallVector<Value>> deadAfter;
  /// The results freed at the terminator, after the waits there.
  llvm::SmallVector<Value> deadAtReturn;
  /// The renames and reshapes whose result takes over their operand's
  /// buffer instead of a copy of it: both keep every byte where it is, and
  /// the operand, an op result that is not returned, has its last use
  /// there. Nothing is allocated for the result, nor run, and the operand
  /// is not freed (deadAfter does not list it); the buffer is freed when
  /// the result dies.
  llvm::DenseSet<Operation *> reusesOperand;
};

/// The lifetimes of `body`'s op results; `startCollectives` says whether
/// the lowering starts collectives (else every op runs to its end).
BufferLifetimes bufferLifetimes(Block &body, bool startCollectives);

} // namespace mlir::tessel

#endif // TESSEL_DIALECT_STARTEDCOLLECTIVES_H
