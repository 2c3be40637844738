//===- Pipeline.cpp - from a model to the program of one rank -------------===//

#include "codegen/Pipeline.h"

#include "codegen/Passes.h"

#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::tessel;

void mlir::tessel::buildCompilePipeline(OpPassManager &pm,
                                        const CompilePipelineOptions &options) {
  // Layers are functions: every call is inlined, with its scope, before
  // anything looks at the model.
  pm.addPass(createTesselInlineLayers());
  if (!options.dimSizes.empty()) {
    TesselResizeDimsOptions resize;
    resize.sizes.assign(options.dimSizes.begin(), options.dimSizes.end());
    pm.addPass(createTesselResizeDims(resize));
  }
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
  // Last before lowering: the passes above match single element-wise ops
  // (optimize-comm's rewrites, explain's counts).
  if (options.fuseElementwise)
    pm.addNestedPass<func::FuncOp>(createTesselFuseElementwise());
  if (options.lower)
    pm.addPass(createTesselLowerToRuntime());
}

void mlir::tessel::buildPartitionPipeline(OpPassManager &pm,
                                          int64_t bucketBytes) {
  pm.addPass(createTesselPartition());
  pm.addPass(createTesselOptimizeComm());
  // The gradient builders make one constant per use, and one collective of
  // a parameter per use.
  pm.addPass(createCSEPass());
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
      "lower-to-runtime",
      buildCompilePipeline);
}
