//===- StepPrediction.h - A laid-out step's costs, memory and time -*- C++
//-*-===//
//
// tessel explain and each of tessel search's candidates predict a laid-out
// function alike: the FLOPs and collectives of the program each rank runs
// (tessel-partition), the memory the runtime holds running it as compile
// lowers it (fused, its ops in the order they run), and its step time, on
// that same lowered program. In two parts, so that search can drop a
// candidate over its memory budget before timing it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_STEPPREDICTION_H
#define TESSEL_TOOLS_TESSEL_STEPPREDICTION_H

#include "analysis/CostReport.h"
#include "analysis/MachineProfile.h"
#include "analysis/StepTime.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <optional>
#include <string>

namespace mlir::tessel {

/// Runs a pass pipeline on a module: nothing on success, else the reason
/// (empty where the passes reported it themselves). `what` names the
/// pipeline.
using PassRunner = llvm::function_ref<std::optional<std::string>(
    PassManager &passes, ModuleOp module, StringRef what)>;

/// A laid-out function counted: its cost report with the partitioned
/// program's costs and the runtime's memory.
struct CountedStep {
  ::tessel::analysis::CostReport report;
  /// The program each rank runs, as compile lowers it (its memory and
  /// time are counted on it).
  OwningOpRef<ModuleOp> lowered;
  std::string function;
};

/// Counts `function` of `laidOut` (a module after tessel-apply-layout,
/// partitioned here in place with all-reduce buckets of `bucketBytes`):
/// its cost report, and the memory the runtime holds running it (with
/// @init's state where the function is train_step) and the driver's own,
/// from `profile`. Nothing, with the reason in `error`, where a pipeline
/// fails.
std::optional<CountedStep>
countStep(OwningOpRef<ModuleOp> laidOut, StringRef function,
          int64_t bucketBytes,
          const ::tessel::analysis::MachineProfile &profile, PassRunner run,
          std::string &error);

/// The step time of `step` on `profile`: its lowered program's ops timed
/// in the order they run (analysis::predictStepTime).
::tessel::analysis::StepTime
predictStep(CountedStep &step,
            const ::tessel::analysis::MachineProfile &profile);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_STEPPREDICTION_H
