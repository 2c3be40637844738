//===- Watchdog.h - Ending a rank whose step does not finish ----*- C++ -*-===//
//
// A rank that dies ends the job: mpirun notices and kills the others. A
// rank that hangs (a peer stopped or stuck in a kernel, a collective that
// never completes) leaves every rank waiting forever. With --step-timeout,
// a thread watches each training step and ends this rank, with a message
// that names it and the step, when one takes longer than the limit; mpirun
// then ends the job as it does for a rank that died.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_WATCHDOG_H
#define TESSEL_RUNTIME_DRIVER_WATCHDOG_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>

namespace tessel::driver {

class StepWatchdog {
public:
  /// Watches the steps of `rank`; a limit of 0 watches nothing.
  StepWatchdog(double limitSeconds, int rank);
  ~StepWatchdog();
  StepWatchdog(const StepWatchdog &) = delete;
  StepWatchdog &operator=(const StepWatchdog &) = delete;

  /// Step `step` (counted from 1) begins now.
  void stepStarted(int64_t step);
  /// The step begun last has finished.
  void stepFinished();

private:
  void watch();

  double limitSeconds_;
  int rank_;
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  /// The step under way (0: none) and when it began, in steady-clock
  /// nanoseconds.
  int64_t step_ = 0;
  int64_t startedAt_ = 0;
  std::thread thread_;
};

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_WATCHDOG_H
