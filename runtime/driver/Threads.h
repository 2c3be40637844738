//===- Threads.h - Sharing a machine's cores among its ranks ----*- C++ -*-===//
//
// oneDNN runs its kernels on OpenMP threads, one per core by default. When
// mpirun starts several ranks on one machine, every rank would start that
// many threads, and their spinning waits starve each other (two ranks on
// two cores ran 25 times slower). So each rank takes its share of the cores.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_THREADS_H
#define TESSEL_RUNTIME_DRIVER_THREADS_H

namespace tessel::driver {

/// Collective over MPI_COMM_WORLD. Unless OMP_NUM_THREADS says otherwise,
/// gives this rank's kernels cores / (ranks on this machine) threads, at
/// least one, where cores are those the process may run on. Rank 0 notes
/// on stderr when a binding (mpirun's default binds each rank to one core)
/// leaves this machine's cores idle. Returns the number chosen, or 0 when
/// left to OMP_NUM_THREADS or when the runtime was built without OpenMP.
int shareCoresAmongLocalRanks();

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_THREADS_H
