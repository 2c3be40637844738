//===- Watchdog.cpp - Ending a rank whose step does not finish ------------===//

#include "driver/Watchdog.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace tessel::driver {

namespace {

int64_t nowNanoseconds() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

} // namespace

StepWatchdog::StepWatchdog(double limitSeconds, int rank)
    : limitSeconds_(limitSeconds), rank_(rank) {
  if (limitSeconds_ > 0)
    thread_ = std::thread([this] { watch(); });
}

StepWatchdog::~StepWatchdog() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

void StepWatchdog::stepStarted(int64_t step) {
  std::lock_guard<std::mutex> lock(mutex_);
  step_ = step;
  startedAt_ = nowNanoseconds();
}

void StepWatchdog::stepFinished() {
  std::lock_guard<std::mutex> lock(mutex_);
  step_ = 0;
}

void StepWatchdog::watch() {
  // Checks ten times per limit (at most every second), so that a hang is
  // reported within 10% of the limit.
  auto period = std::chrono::duration<double>(
      std::min(1.0, limitSeconds_ / 10));
  std::unique_lock<std::mutex> lock(mutex_);
  while (!wake_.wait_for(lock, period, [this] { return stopping_; })) {
    if (step_ == 0)
      continue;
    double elapsed = (nowNanoseconds() - startedAt_) * 1e-9;
    if (elapsed <= limitSeconds_)
      continue;
    std::fputs(fmt::format("tessel: rank {}: error: step {} has not finished "
                           "after {:.1f} s (--step-timeout {}): a rank may "
                           "be stopped or stuck in a collective or a kernel; "
                           "ending this rank so that the job ends\n",
                           rank_, step_, elapsed, limitSeconds_)
                   .c_str(),
               stderr);
    std::fflush(stderr);
    // No MPI call from this thread (MPI may be initialised for one thread
    // only) and no destructors of state the main thread is using: a plain
    // exit with a failure status, which mpirun treats as a dead rank.
    std::_Exit(3);
  }
}

} // namespace tessel::driver
