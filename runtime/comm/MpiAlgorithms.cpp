//===- MpiAlgorithms.cpp - The MPI collective algorithms the runtime wants ===//
//
// Open MPI chooses each collective's algorithm by its own rules, which can
// only be changed through MCA parameters that MPI_Init reads from the
// environment. One rule costs compiled programs dearly: Open MPI 4.1's
// libnbc, which runs the started collectives, takes a binomial reduce to
// one rank and a broadcast back for MPI_Iallreduce on fewer than four ranks
// or in place (every 16-bit sum is in place, on its f32 copy). That moves
// the whole tensor twice, one way after the other, where the blocking
// MPI_Allreduce reduce-scatters and all-gathers halves. On two ranks over
// shared memory, one call at a time after a barrier, 1 MiB of f32 took 174
// us started and waited for against 85 us blocking, 4 MiB 773 against 343
// us; with the reduce-scatter and all-gather algorithm (3) the started call
// took 83 and 331 us (docs/codegen.md, "Communication overlapped with
// computation").
//
//===----------------------------------------------------------------------===//

#include "tessel/runtime/comm.h"

#include <cstdlib>

void tessel_comm_choose_mpi_algorithms(void) {
  // Not overwritten: `mpirun --mca coll_libnbc_iallreduce_algorithm N` sets
  // this variable in every rank's environment, and the user's choice wins.
  setenv("OMPI_MCA_coll_libnbc_iallreduce_algorithm", "3", /*overwrite=*/0);
}
