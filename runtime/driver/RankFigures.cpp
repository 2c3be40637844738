//===- RankFigures.cpp - One figure from every rank, on rank 0 ------------===//

#include "driver/RankFigures.h"

#include <mpi.h>

namespace tessel::driver {

std::vector<double> gatherOnRankZero(double mine) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  std::vector<double> all(rank == 0 ? size : 0);
  MPI_Gather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, 0,
             MPI_COMM_WORLD);
  return all;
}

} // namespace tessel::driver
