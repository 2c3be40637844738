//===- Schedule.cpp - Learning rate schedules -----------------------------===//

#include "driver/Schedule.h"

#include <algorithm>
#include <cmath>

namespace tessel::driver {

double learningRate(const std::string &schedule, double peak, int64_t warmup,
                    int64_t step, int64_t totalSteps) {
  if (schedule == "constant")
    return peak;
  if (step < warmup)
    return peak * static_cast<double>(step + 1) / static_cast<double>(warmup);
  if (schedule == "warmup")
    return peak;
  int64_t decaySteps = std::max<int64_t>(totalSteps - warmup - 1, 1);
  double t = std::min(1.0, static_cast<double>(step - warmup) /
                               static_cast<double>(decaySteps));
  constexpr double pi = 3.14159265358979323846;
  return peak * 0.5 * (1.0 + std::cos(pi * t));
}

} // namespace tessel::driver
