//===- Profile.h - Where a training step's time goes, op by op --*- C++ -*-===//
//
// `--profile` times every op's kernel during training (the executor's op
// profiling) and prints, on rank 0, the time per step of each kind of op
// and of the costliest call sites, so that a user comparing layouts sees
// what each spends its time on, computation or communication, and which
// ops no fast kernel took.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_PROFILE_H
#define TESSEL_RUNTIME_DRIVER_PROFILE_H

#include <cstdint>
#include <cstdio>
#include <vector>

namespace tessel::driver {

/// Every rank's seconds waited for communication (in the collectives'
/// calls) while its ops were profiled, gathered on rank 0 (empty
/// elsewhere). Collective over MPI_COMM_WORLD.
std::vector<double> gatherWaitedSeconds();

/// Prints rank 0's kernel time per training step (`steps` steps were
/// profiled): by op name, the communication (time waited for, and time in
/// flight behind other ops: runtime/README.md, "The driver"), with
/// `waitedPerRank` every rank's wait (gatherWaitedSeconds), the call
/// sites that ran reference kernels (slow paths; "none" when none did),
/// then the `topSites` costliest call sites (0: every one).
void printOpProfile(std::FILE *out, int64_t steps, int topSites = 15,
                    const std::vector<double> &waitedPerRank = {});

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_PROFILE_H
