//===- Schedule.h - Learning rate schedules ---------------------*- C++ -*-===//
//
// The training step takes the learning rate as an input (docs/training.md),
// so one compiled step serves every schedule; the driver computes it here.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_SCHEDULE_H
#define TESSEL_RUNTIME_DRIVER_SCHEDULE_H

#include <cstdint>
#include <string>

namespace tessel::driver {

/// The learning rate of step `step` (from 0) of `totalSteps`:
///   constant: peak;
///   warmup:   peak * (step + 1) / warmup during the first `warmup` steps,
///             then peak;
///   cosine:   the warm-up, then peak * (1 + cos(pi * t)) / 2 with t going
///             from 0 after the warm-up to 1 at the last step.
double learningRate(const std::string &schedule, double peak, int64_t warmup,
                    int64_t step, int64_t totalSteps);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_SCHEDULE_H
