//===- Fatal.cpp - Ending the job on an error -----------------------------===//

#include "executor/Fatal.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>

namespace tessel::runtime {

void fatalError(const std::string &message) {
  std::fprintf(stderr, "%s\n", message.c_str());
  std::fflush(stderr);
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  if (initialized && !finalized)
    MPI_Abort(MPI_COMM_WORLD, 1);
  std::exit(1);
}

} // namespace tessel::runtime
