//===- StartedCollectives.h - collectives that run while others compute --===//
//
// The mesh-level collectives the runtime has a non-blocking form of
// (tessel_rt_start, tessel_rt_wait): tessel-lower-to-runtime starts them
// where they stand and waits for them before their first user,
// tessel-schedule-collectives moves them early and their users late, and
// the cost model (analysis/StepTime) counts the time they move while the
// rank computes as hidden. all_to_all and collective_permute block.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_DIALECT_STARTEDCOLLECTIVES_H
#define TESSEL_DIALECT_STARTEDCOLLECTIVES_H

#include "dialect/TesselDialect.h"

namespace mlir::tessel {

inline bool isStartedCollective(Operation *op) {
  return isa<AllReduceOp, AllGatherOp, ReduceScatterOp, HaloExchangeOp>(op);
}

} // namespace mlir::tessel

#endif // TESSEL_DIALECT_STARTEDCOLLECTIVES_H
