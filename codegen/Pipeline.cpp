//===- Pipeline.cpp - from a model to the program of one rank -------------===//

#include "codegen/Pipeline.h"

#include "codegen/Passes.h"
#include "layouts/LayoutFile.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tessel;

bool mlir::tessel::pipelinesTrainingStep(StringRef mode,
                                         StringRef layoutFile) {
  if (mode != "train" || layoutFile.empty())
    return false;
  // A file that does not parse is tessel-apply-layout's to report.
  std::vector<::tessel::layout::Diagnostic> ignored;
  std::optional<::tessel::layout::LayoutSpec> spec =
      ::tessel::layout::parseLayoutFile(layoutFile.str(), ignored);
  return spec && spec->pipeline;
}

/// A pipelined training step (docs/pipeline.md): the loss is cut into
/// stages at its layer calls before they are inlined, each stage is
/// differentiated on its own, and each stage's step is cut into forward
/// and backward once the layout has given every value its type.
static void buildPipelinedStep(OpPassManager &pm,
                               const CompilePipelineOptions &options) {
  TesselSplitStagesOptions stages;
  stages.layoutFile = options.layoutFile;
  pm.addPass(createTesselSplitStages(stages));
  pm.addPass(createTesselInlineLayers());
  if (options.decomposeEinsum)
    pm.addPass(createTesselDecomposeEinsum());
  TesselPipelineAutodiffOptions autodiff;
  autodiff.optimizer = options.optimizer;
  autodiff.precision = options.precision;
  autodiff.weightDecay = options.weightDecay;
  autodiff.clipNorm = options.clipNorm;
  autodiff.lossScale = options.lossScale;
  autodiff.lossScaleGrowthInterval = options.lossScaleGrowthInterval;
  pm.addPass(createTesselPipelineAutodiff(autodiff));
  TesselApplyLayoutOptions layout;
  layout.layoutFile = options.layoutFile;
  layout.padUneven = options.padUneven;
  pm.addPass(createTesselApplyLayout(layout));
  pm.addPass(createTesselSplitForwardBackward());
  buildPartitionPipeline(pm, options.bucketBytes, /*pipelined=*/true);
}

/// tessel-resize-dims with the options' `dim-sizes` and `batch-size`, if
/// any.
static void addResize(OpPassManager &pm,
                      const CompilePipelineOptions &options) {
  if (options.dimSizes.empty() && options.batchSize == 0)
    return;
  TesselResizeDimsOptions resize;
  resize.sizes.assign(options.dimSizes.begin(), options.dimSizes.end());
  resize.batchSize = options.batchSize;
  pm.addPass(createTesselResizeDims(resize));
}

/// The training step (or forward-only functions) of an unpipelined model,
/// laid out and partitioned.
static void buildStep(OpPassManager &pm,
                      const CompilePipelineOptions &options) {
  // Layers are functions: every call is inlined, with its scope, before
  // anything looks at the model.
  pm.addPass(createTesselInlineLayers());
  addResize(pm, options);
  // Einsums of three or more inputs as pairwise ones (matmuls), ordered by
  // the sizes just set, before gradients, layouts and partitioning see
  // them.
  if (options.decomposeEinsum)
    pm.addPass(createTesselDecomposeEinsum());
  if (options.mode == "infer") {
    pm.addPass(createTesselLiftParameters());
  } else if (options.mode == "train") {
    TesselAutodiffOptions autodiff;
    autodiff.optimizer = options.optimizer;
    autodiff.precision = options.precision;
    autodiff.weightDecay = options.weightDecay;
    autodiff.clipNorm = options.clipNorm;
    autodiff.lossScale = options.lossScale;
    autodiff.lossScaleGrowthInterval = options.lossScaleGrowthInterval;
    pm.addPass(createTesselAutodiff(autodiff));
  }
  if (!options.layoutFile.empty() || !options.meshSpec.empty()) {
    TesselApplyLayoutOptions layout;
    layout.layoutFile = options.layoutFile;
    layout.meshSpec = options.meshSpec;
    layout.rulesSpec = options.rulesSpec;
    layout.padUneven = options.padUneven;
    pm.addPass(createTesselApplyLayout(layout));
    buildPartitionPipeline(pm, options.bucketBytes);
  } else {
    // The gradient builders make one constant per use.
    pm.addPass(createCSEPass());
  }
}

void mlir::tessel::buildCompilePipeline(OpPassManager &pm,
                                        const CompilePipelineOptions &options) {
  if (pipelinesTrainingStep(options.mode, options.layoutFile)) {
    // Sizes first, while the layers are still calls: a resize changes every
    // type of the module, the called layers' included.
    addResize(pm, options);
    buildPipelinedStep(pm, options);
  } else {
    buildStep(pm, options);
  }
  // Last before lowering: the passes above match single element-wise ops
  // (optimize-comm's rewrites, explain's counts).
  if (options.fuseElementwise) {
    pm.addNestedPass<func::FuncOp>(createTesselFuseElementwise());
    if (options.mergeFusedOutputs)
      pm.addNestedPass<func::FuncOp>(createTesselMergeFusedOutputs());
  }
  // A convolution's interior rows while its halos move, and the order the
  // lowering's starts and waits of collectives will follow.
  if (options.overlapCommunication)
    buildOverlapPipeline(pm, options.splitHaloConvolutions);
  if (options.lower) {
    TesselLowerToRuntimeOptions lowering;
    lowering.overlapCommunication = options.overlapCommunication;
    pm.addPass(createTesselLowerToRuntime(lowering));
  }
}

void mlir::tessel::buildOverlapPipeline(OpPassManager &pm,
                                        bool splitHaloConvolutions) {
  if (splitHaloConvolutions)
    pm.addNestedPass<func::FuncOp>(createTesselSplitHaloConvolutions());
  pm.addNestedPass<func::FuncOp>(createTesselScheduleCollectives());
}

void mlir::tessel::buildLoweredFormPipeline(OpPassManager &pm) {
  pm.addNestedPass<func::FuncOp>(createTesselFuseElementwise());
  buildOverlapPipeline(pm, /*splitHaloConvolutions=*/true);
}

void mlir::tessel::buildPartitionPipeline(OpPassManager &pm,
                                          int64_t bucketBytes,
                                          bool pipelined) {
  pm.addPass(createTesselPartition());
  pm.addPass(createTesselOptimizeComm());
  // The gradient builders make one constant per use, and one collective of
  // a parameter per use.
  pm.addPass(createCSEPass());
  // A stage's gradient all_reduces, once a step in its apply instead of
  // once per micro-batch in its backward; before the bucketing, which then
  // merges apply's as it merged the backward's.
  if (pipelined) {
    pm.addPass(createTesselReduceGradientsOncePerStep());
    // Clipping by the global norm: each stage's sum of squares, over
    // every stage.
    pm.addPass(createTesselSumGradientNormOverStages());
  }
  if (bucketBytes > 0) {
    TesselBucketAllReducesOptions bucket;
    bucket.maxBytes = bucketBytes;
    pm.addNestedPass<func::FuncOp>(createTesselBucketAllReduces(bucket));
  }
}

void mlir::tessel::registerCompilePipeline() {
  PassPipelineRegistration<CompilePipelineOptions>(
      "tessel-compile",
      "the pipeline of `tessel compile`: inline-layers, decompose-einsum, "
      "autodiff (or lift-parameters), layout, "
      "partition, optimize-comm, bucket-all-reduces, fuse-elementwise, "
      "(merge-fused-outputs with merge-fused-outputs=true), "
      "schedule-collectives, lower-to-runtime",
      buildCompilePipeline);
}
