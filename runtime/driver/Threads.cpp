//===- Threads.cpp - Sharing a machine's cores among its ranks ------------===//

#include "driver/Threads.h"

#include <mpi.h>

#ifdef TESSEL_DRIVER_HAS_OPENMP
#include <omp.h>
#endif

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sched.h>
#include <unistd.h>

namespace tessel::driver {

int shareCoresAmongLocalRanks() {
  MPI_Comm local;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL,
                      &local);
  int localRanks = 1;
  MPI_Comm_size(local, &localRanks);
  MPI_Comm_free(&local);
#ifdef TESSEL_DRIVER_HAS_OPENMP
  if (std::getenv("OMP_NUM_THREADS"))
    return 0;
  // The cores this process may run on, which mpirun's binding or a
  // container may have narrowed.
  cpu_set_t cpus;
  int cores =
      sched_getaffinity(0, sizeof cpus, &cpus) == 0 ? CPU_COUNT(&cpus) : 1;
  int threads = std::max(1, cores / std::max(1, localRanks));
  omp_set_num_threads(threads);
  // mpirun binds each rank to one core by default (for up to two ranks),
  // which leaves the machine's other cores idle.
  long online = sysconf(_SC_NPROCESSORS_ONLN);
  int share = static_cast<int>(std::max(1L, online / std::max(1, localRanks)));
  int worldRank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
  if (worldRank == 0 && cores < share)
    std::fputs(fmt::format("note: each rank may run on {} core(s), but this "
                           "machine has {} for {} rank(s) here; mpirun binds "
                           "ranks to cores by default: pass --bind-to none "
                           "(or --map-by slot:PE={}) to use them all\n",
                           cores, online, localRanks, share)
                   .c_str(),
               stderr);
  return threads;
#else
  return 0;
#endif
}

} // namespace tessel::driver
