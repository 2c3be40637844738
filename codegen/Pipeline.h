//===- Pipeline.h - from a model to the program of one rank -----*- C++ -*-===//
//
// The pass pipeline of `tessel compile`: training step (or, for a
// forward-only program, parameters as arguments), layout, partition,
// cheaper collectives, and the lowering to runtime calls. Also registered
// as `tessel-compile` for tessel-opt and other MLIR tools.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_PIPELINE_H
#define TESSEL_CODEGEN_PIPELINE_H

#include "passes/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassOptions.h"

namespace mlir::tessel {

/// The largest tensor and bucket that tessel-bucket-all-reduces merges by
/// default (its pass option's default, in Passes.td, is the same).
constexpr int64_t kDefaultBucketBytes = 262144;

struct CompilePipelineOptions
    : public PassPipelineOptions<CompilePipelineOptions> {
  ListOption<std::string> dimSizes{
      *this, "dim-sizes",
      llvm::cl::desc("NAME=SIZE: resize named dimensions first "
                     "(tessel-resize-dims)")};
  Option<int64_t> batchSize{
      *this, "batch-size",
      llvm::cl::desc("examples per step: resize `batch` and every dimension "
                     "that holds its elements under another name first "
                     "(tessel-resize-dims; 0: keep the model's)"),
      llvm::cl::init(0)};
  Option<bool> decomposeEinsum{
      *this, "decompose-einsum",
      llvm::cl::desc("split einsums of three or more inputs into pairwise "
                     "ones in the cheapest order (tessel-decompose-einsum)"),
      llvm::cl::init(true)};
  Option<std::string> mode{
      *this, "mode",
      llvm::cl::desc("train: differentiate the loss into @init and "
                     "@train_step (tessel-autodiff); infer: a forward-only "
                     "program whose functions take their parameters as "
                     "arguments (tessel-lift-parameters); none: neither"),
      llvm::cl::init("train")};
  Option<std::string> optimizer{*this, "optimizer",
                                llvm::cl::desc("sgd, momentum, adam, adamw"),
                                llvm::cl::init("sgd")};
  Option<std::string> precision{*this, "precision",
                                llvm::cl::desc("f32, bf16 or f16"),
                                llvm::cl::init("f32")};
  Option<double> weightDecay{*this, "weight-decay",
                             llvm::cl::desc("weight decay"),
                             llvm::cl::init(0.0)};
  Option<double> clipNorm{*this, "clip-norm",
                          llvm::cl::desc("global gradient norm limit"),
                          llvm::cl::init(0.0)};
  Option<std::string> lossScale{
      *this, "loss-scale",
      llvm::cl::desc("dynamic loss scaling: auto (on for f16), off, or the "
                     "initial scale"),
      llvm::cl::init("auto")};
  Option<int64_t> lossScaleGrowthInterval{
      *this, "loss-scale-growth-interval",
      llvm::cl::desc("finite steps after which the loss scale doubles"),
      llvm::cl::init(2000)};
  Option<std::string> layoutFile{*this, "layout-file",
                                 llvm::cl::desc("a YAML layout file")};
  Option<std::string> meshSpec{*this, "mesh",
                               llvm::cl::desc("mesh string, data:2;model:2")};
  Option<std::string> rulesSpec{*this, "rules",
                                llvm::cl::desc("rules string, batch:data")};
  Option<bool> padUneven{*this, "pad-uneven",
                         llvm::cl::desc("pad splits that do not divide"),
                         llvm::cl::init(false)};
  Option<int64_t> bucketBytes{
      *this, "bucket-bytes",
      llvm::cl::desc("merge all_reduces of tensors up to this size into "
                     "buffers of up to this size (0: never)"),
      llvm::cl::init(kDefaultBucketBytes)};
  Option<bool> fuseElementwise{
      *this, "fuse-elementwise",
      llvm::cl::desc("compute chains of element-wise ops as one op "
                     "(tessel-fuse-elementwise)"),
      llvm::cl::init(true)};
  Option<bool> mergeFusedOutputs{
      *this, "merge-fused-outputs",
      llvm::cl::desc("with fuse-elementwise, compute a fused op and the "
                     "fused op right after it that reads its value as one "
                     "op of several results (tessel-merge-fused-outputs; "
                     "off by default, as `tessel compile` has it: the "
                     "merged passes ran slower steps on one core a rank; "
                     "the GPU runtime's fused kernel writes one result)"),
      llvm::cl::init(false)};
  Option<bool> overlapCommunication{
      *this, "overlap-communication",
      llvm::cl::desc("order ops so that collectives start early and are "
                     "waited for late (tessel-schedule-collectives), and "
                     "start each where it is and wait for it before its "
                     "first user (tessel-lower-to-runtime)"),
      llvm::cl::init(true)};
  Option<bool> splitHaloConvolutions{
      *this, "split-halo-convolutions",
      llvm::cl::desc("with overlap-communication, compute each convolution "
                     "of a halo-exchanged block as its interior rows, from "
                     "the block alone while the halos move, and its "
                     "boundary rows (tessel-split-halo-convolutions); "
                     "`tessel compile --target cuda` turns it off, since "
                     "the CUDA runtime's halo exchanges block on its "
                     "stream"),
      llvm::cl::init(true)};
  Option<bool> lower{*this, "lower",
                     llvm::cl::desc("lower to runtime calls (LLVM dialect)"),
                     llvm::cl::init(true)};
};

/// Adds the passes of `tessel compile` to `pm`: tessel-inline-layers,
/// tessel-resize-dims (with `dim-sizes`), tessel-decompose-einsum (with
/// `decompose-einsum`), tessel-autodiff (`mode` train) or
/// tessel-lift-parameters (`mode` infer), tessel-apply-layout (with a layout),
/// tessel-partition, tessel-optimize-comm, CSE, tessel-bucket-all-reduces (with
/// `bucket-bytes`), tessel-fuse-elementwise (with `fuse-elementwise`) and,
/// with `lower`, tessel-lower-to-runtime.
void buildCompilePipeline(OpPassManager &pm,
                          const CompilePipelineOptions &options);

/// Adds what turns a laid-out module into the program of each rank:
/// tessel-partition, tessel-optimize-comm, CSE, for a pipelined step
/// (`pipelined`) tessel-reduce-gradients-once-per-step and, unless
/// `bucketBytes` is 0, tessel-bucket-all-reduces. `tessel compile` and
/// `tessel explain` both use it, so that explain counts the collectives
/// compile emits.
void buildPartitionPipeline(OpPassManager &pm, int64_t bucketBytes,
                            bool pipelined = false);

/// Adds what orders a rank's program for overlapping its communication
/// with its computation: tessel-split-halo-convolutions (with
/// `splitHaloConvolutions`) and tessel-schedule-collectives, on each
/// function. buildCompilePipeline adds them under `overlap-communication`;
/// tessel search, to time the program in the order it will run.
void buildOverlapPipeline(OpPassManager &pm, bool splitHaloConvolutions);

/// Adds what `tessel compile` runs between partitioning and lowering, with
/// its default options: tessel-fuse-elementwise, then buildOverlapPipeline.
/// tessel explain and tessel search count a step's memory on the program
/// this leaves (the buffers the lowered program allocates, in its order).
void buildLoweredFormPipeline(OpPassManager &pm);

/// Whether a program of `mode` (train, infer, none) with the layout file
/// `layoutFile` is a pipelined training step (the file has a `pipeline:`
/// section), which buildCompilePipeline builds from the model's layer calls
/// (docs/pipeline.md): such a model must reach it with its calls.
bool pipelinesTrainingStep(StringRef mode, StringRef layoutFile);

/// Registers the pipeline as `tessel-compile`.
void registerCompilePipeline();

} // namespace mlir::tessel

#endif // TESSEL_CODEGEN_PIPELINE_H
