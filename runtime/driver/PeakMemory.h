//===- PeakMemory.h - Each rank's peak resident memory ----------*- C++ -*-===//
//
// What a layout costs in memory is a figure users compare layouts by
// (`tessel explain` predicts it; this measures it): each rank's peak
// resident set size, gathered on rank 0.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_PEAKMEMORY_H
#define TESSEL_RUNTIME_DRIVER_PEAKMEMORY_H

#include <vector>

namespace tessel::driver {

/// Every rank's peak resident memory so far in MiB, in rank order, on rank
/// 0 (empty elsewhere). Collective over MPI_COMM_WORLD.
std::vector<double> gatherPeakMemoryMiB();

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_PEAKMEMORY_H
