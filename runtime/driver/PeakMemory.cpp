//===- PeakMemory.cpp - Each rank's peak resident memory ------------------===//

#include "driver/PeakMemory.h"

#include <mpi.h>

#include <sys/resource.h>

namespace tessel::driver {

std::vector<double> gatherPeakMemoryMiB() {
  struct rusage usage = {};
  ::getrusage(RUSAGE_SELF, &usage);
  // Linux reports ru_maxrss in KiB.
  double mine = static_cast<double>(usage.ru_maxrss) / 1024.0;
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<double> all(rank == 0 ? size : 0);
  MPI_Gather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0,
             MPI_COMM_WORLD);
  return all;
}

} // namespace tessel::driver
