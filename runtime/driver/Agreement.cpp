//===- Agreement.cpp - Failing on every rank together ---------------------===//

#include "driver/Agreement.h"

#include <mpi.h>

#include <climits>
#include <cstdio>

namespace tessel::driver {

bool anyRankFailed(int64_t rank, const std::optional<std::string> &error) {
  int mine = error ? static_cast<int>(rank) : INT_MAX;
  int first = INT_MAX;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == INT_MAX)
    return false;
  if (first == mine) {
    std::fprintf(stderr, "tessel: %s\n", error->c_str());
    std::fflush(stderr);
  }
  return true;
}

} // namespace tessel::driver
