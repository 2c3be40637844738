//===- StepTime.h - a layout's training step time, predicted -----*- C++
//-*-===//
//
// The time one rank's program takes per step on a machine profile: each
// op's kernel time for its class and work (FLOPs or elements, as CostReport
// counts them), plus each collective's alpha-beta time for its group and
// bytes. The runtime runs one op after another, so nothing overlaps and the
// step is their sum (docs/search.md).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_ANALYSIS_STEPTIME_H
#define TESSEL_ANALYSIS_STEPTIME_H

#include "analysis/CostReport.h"
#include "analysis/MachineProfile.h"

#include <map>
#include <string>

namespace tessel::analysis {

struct StepTime {
  double computeSeconds = 0;
  double commSeconds = 0;
  /// Kernel seconds by op class (kernelClasses()).
  std::map<std::string, double> classSeconds;

  double totalSeconds() const { return computeSeconds + commSeconds; }
};

/// Returns the profile's kernel class of `op` (one of kernelClasses()), or
/// an empty string for a mesh-level collective, which is timed as
/// communication.
std::string kernelClassOf(mlir::Operation *op);

/// Predicts the step of `partitioned` (the per-rank program of the report's
/// function, whose collectives `report` lists) in a job of
/// `report.numRanks` ranks on `profile`.
StepTime predictStepTime(mlir::func::FuncOp partitioned,
                         const CostReport &report,
                         const MachineProfile &profile);

} // namespace tessel::analysis

#endif // TESSEL_ANALYSIS_STEPTIME_H
