//===- PeakMemory.cpp - Each rank's peak resident memory ------------------===//

#include "driver/PeakMemory.h"

#include "driver/RankFigures.h"

#include <sys/resource.h>

namespace tessel::driver {

std::vector<double> gatherPeakMemoryMiB() {
  struct rusage usage = {};
  ::getrusage(RUSAGE_SELF, &usage);
  // Linux reports ru_maxrss in KiB.
  return gatherOnRankZero(static_cast<double>(usage.ru_maxrss) / 1024.0);
}

} // namespace tessel::driver
