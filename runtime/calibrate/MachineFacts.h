//===- MachineFacts.h - The machine a profile describes ---------*- C++ -*-===//
//
// The calibrate probe's `--machine` line: the host, its CPU, its cores and
// the caches they share out, read from the system of the machine measured,
// so that a profile assembled elsewhere from the probe's saved output
// (`tessel calibrate --probe-output`) describes that machine.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_CALIBRATE_MACHINEFACTS_H
#define TESSEL_RUNTIME_CALIBRATE_MACHINEFACTS_H

#include <cstdint>
#include <string>

namespace tessel::calibrate {

struct MachineFacts {
  std::string host;
  /// The CPU's model name from /proc/cpuinfo, or "unknown".
  std::string cpu;
  /// The cores online.
  int64_t cores = 1;
  /// The caches the cores share out: the first core's level 2 once per
  /// core and its level 3 once; 0 where the system does not say.
  int64_t cacheBytes = 0;
  /// When it was described, in UTC (2026-11-29T02:10:00Z).
  std::string measuredAt;
};

MachineFacts machineFacts();

} // namespace tessel::calibrate

#endif // TESSEL_RUNTIME_CALIBRATE_MACHINEFACTS_H
