//===- ExplainPipeline.h - tessel explain for a pipelined step --*- C++ -*-===//
//
// `tessel explain --train` with a layout that has a `pipeline:` section:
// builds the stage functions as `tessel compile` does and prints what each
// stage costs, the bubble and the step time (analysis/PipelineCost.h).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_EXPLAINPIPELINE_H
#define TESSEL_TOOLS_TESSEL_EXPLAINPIPELINE_H

#include "analysis/MachineProfile.h"
#include "tools/support/ModelFile.h"

#include <string>
#include <vector>

namespace mlir::tessel {

/// The options of `tessel explain` that shape a pipelined step.
struct PipelineExplainOptions {
  std::string optimizer = "sgd";
  std::string precision = "f32";
  double weightDecay = 0;
  double clipNorm = 0;
  std::string layoutPath;
  bool padUneven = false;
  int64_t bucketBytes = 0;
  /// NAME=SIZE, as compile's --dim-size.
  std::vector<std::string> dimSizes;
  /// compile's --batch: resizes every dimension that holds the batch (0:
  /// keeps the model's).
  int64_t batchSize = 0;
  bool json = false;
};

/// Explains the pipelined training step of `model`, read with its layer
/// calls (ModelFile's inlineLayers false); prints the report on stdout,
/// errors on stderr. Returns the exit status.
int explainPipeline(ModelFile &model, const PipelineExplainOptions &options,
                    const ::tessel::analysis::MachineProfile &profile);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_EXPLAINPIPELINE_H
