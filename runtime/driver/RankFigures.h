//===- RankFigures.h - One figure from every rank, on rank 0 ----*- C++ -*-===//
//
// The driver's reports compare ranks (peak memory, time waited for
// communication): each rank measures its own figure and rank 0 prints them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_RANKFIGURES_H
#define TESSEL_RUNTIME_DRIVER_RANKFIGURES_H

#include <vector>

namespace tessel::driver {

/// Every rank's `mine`, in rank order, on rank 0 (empty elsewhere).
/// Collective over MPI_COMM_WORLD.
std::vector<double> gatherOnRankZero(double mine);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_RANKFIGURES_H
