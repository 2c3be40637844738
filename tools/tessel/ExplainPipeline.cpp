//===- ExplainPipeline.cpp - tessel explain for a pipelined step ----------===//

#include "tools/tessel/ExplainPipeline.h"

#include "analysis/PipelineCost.h"
#include "codegen/Pipeline.h"
#include "passes/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

using namespace mlir;

int mlir::tessel::explainPipeline(
    ModelFile &model, const PipelineExplainOptions &options,
    const ::tessel::analysis::MachineProfile &profile) {
  MLIRContext &context = model.context();
  // The layers of each stage: the calls tessel-split-stages gives it,
  // before they are inlined.
  OwningOpRef<ModuleOp> split = model.module().clone();
  PassManager splitting(&context);
  if (!options.dimSizes.empty() || options.batchSize > 0) {
    TesselResizeDimsOptions resize;
    resize.sizes.assign(options.dimSizes.begin(), options.dimSizes.end());
    resize.batchSize = options.batchSize;
    splitting.addPass(createTesselResizeDims(resize));
  }
  TesselSplitStagesOptions stages;
  stages.layoutFile = options.layoutPath;
  splitting.addPass(createTesselSplitStages(stages));
  if (failed(splitting.run(*split)))
    return 1;

  CompilePipelineOptions compile;
  compile.mode = "train";
  compile.optimizer = options.optimizer;
  compile.precision = options.precision;
  compile.weightDecay = options.weightDecay;
  compile.clipNorm = options.clipNorm;
  compile.layoutFile = options.layoutPath;
  compile.padUneven = options.padUneven;
  compile.bucketBytes = options.bucketBytes;
  compile.dimSizes = options.dimSizes;
  compile.batchSize = options.batchSize;
  // FLOPs are counted op by op, before fusion; the runtime's buffers after
  // it, as explain counts an unpipelined step.
  compile.fuseElementwise = false;
  compile.lower = false;
  PassManager pm(&context);
  buildCompilePipeline(pm, compile);
  if (failed(pm.run(model.module())))
    return 1;
  OwningOpRef<ModuleOp> fused = model.module().clone();
  PassManager fuse(&context);
  buildLoweredFormPipeline(fuse);
  if (failed(fuse.run(*fused)))
    return 1;

  std::string error;
  std::optional<::tessel::analysis::PipelineCost> cost =
      ::tessel::analysis::buildPipelineCost(
          model.module(), *fused, ::tessel::analysis::layersOfStages(*split),
          profile, error);
  if (!cost) {
    llvm::errs() << "tessel explain: " << error << "\n";
    return 1;
  }
  llvm::outs() << (options.json
                       ? ::tessel::analysis::formatPipelineJson(*cost)
                       : ::tessel::analysis::formatPipelineText(*cost));
  return 0;
}
