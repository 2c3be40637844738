//===- Explain.cpp - tessel explain: what a layout costs ------------------===//
//
// `explain` applies a layout and reports, per tensor, its layout, local
// shape and bytes per rank, then the collectives and the per-rank totals of
// memory, communication and FLOPs. With --train it first builds the
// training step as `tessel compile` does (tessel-autodiff with the same
// --optimizer, --precision, --weight-decay and --clip-norm) and explains
// @train_step: the gradients' all_reduces and the optimizer state included.
// Its peak memory per rank is what the compiled step holds (RuntimeMemory.h)
// plus the driver's own, from the machine profile (--profile), and its
// predicted time on that profile is the one tessel search ranks the layout
// by (StepTime.h). With a layout that pipelines the step (a `pipeline:`
// section), --train builds the stage functions as compile does and reports
// each stage's memory, work and messages, the bubble and the step time
// (PipelineCost.h).
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/Commands.h"

#include "analysis/CostReport.h"
#include "analysis/StepTime.h"
#include "codegen/Pipeline.h"
#include "dialect/TesselDialect.h"
#include "passes/Passes.h"
#include "tools/support/ModelFile.h"
#include "tools/support/OptionValues.h"
#include "tools/support/OutputFile.h"
#include "tools/tessel/ExplainPipeline.h"
#include "tools/tessel/LayoutPicture.h"
#include "tools/tessel/StepPrediction.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

#include <fmt/format.h>

using namespace mlir;
namespace cl = llvm::cl;

cl::SubCommand mlir::tessel::explainCommand("explain",
                                            "what a layout costs, per rank");
static cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::Required,
                                      cl::sub(mlir::tessel::explainCommand));
static cl::opt<std::string> layoutPath("layout", cl::desc("YAML layout file"),
                                       cl::sub(mlir::tessel::explainCommand));
static cl::opt<std::string>
    meshSpec("mesh", cl::desc("mesh string, e.g. data:2;model:4"),
             cl::sub(mlir::tessel::explainCommand));
static cl::opt<std::string>
    rulesSpec("rules", cl::desc("rules string, e.g. batch:data;hidden:model"),
              cl::sub(mlir::tessel::explainCommand));
static cl::opt<std::string>
    functionName("function",
                 cl::desc("function to explain (default: the first; "
                          "train_step with --train)"),
                 cl::sub(mlir::tessel::explainCommand));
static cl::opt<bool>
    train("train",
          cl::desc("explain the training step that `tessel compile` builds: "
                   "forward, backward and the optimizer's update"),
          cl::sub(mlir::tessel::explainCommand));
static cl::opt<std::string>
    optimizer("optimizer",
              cl::desc("with --train: sgd, momentum, adam or adamw"),
              cl::init("sgd"), cl::sub(mlir::tessel::explainCommand));
static cl::opt<std::string>
    precision("precision",
              cl::desc("with --train: f32, or bf16 / f16 mixed precision"),
              cl::init("f32"), cl::sub(mlir::tessel::explainCommand));
static cl::opt<double> weightDecay("weight-decay",
                                   cl::desc("with --train: weight decay"),
                                   cl::init(0.0),
                                   cl::sub(mlir::tessel::explainCommand));
static cl::opt<double>
    clipNorm("clip-norm",
             cl::desc("with --train: clip gradients to this global L2 norm"),
             cl::init(0.0), cl::sub(mlir::tessel::explainCommand));
static cl::opt<std::string> lossScale(
    "loss-scale",
    cl::desc("with --train: dynamic loss scaling, auto (on for --precision "
             "f16), off, or the initial scale"),
    cl::init("auto"), cl::sub(mlir::tessel::explainCommand));
static cl::opt<int64_t> lossScaleGrowthInterval(
    "loss-scale-growth-interval",
    cl::desc("with --train: finite steps after which the loss scale doubles"),
    cl::init(2000), cl::sub(mlir::tessel::explainCommand));
static cl::list<std::string>
    dimSizes("dim-size",
             cl::desc("NAME=SIZE: resize a named dimension (repeatable)"),
             cl::sub(mlir::tessel::explainCommand));
static cl::opt<int64_t>
    batchSize("batch",
              cl::desc("resize the 'batch' dimension and every dimension "
                       "that holds it under another name"),
              cl::init(0),
              cl::sub(mlir::tessel::explainCommand));
static cl::opt<bool>
    padUneven("pad-uneven", cl::desc("pad splits that do not divide"),
              cl::sub(mlir::tessel::explainCommand));
static cl::opt<int64_t> bucketBytes(
    "bucket-bytes",
    cl::desc("as for compile: all_reduces of tensors up to this size share "
             "buffers of up to this size (0: one per tensor)"),
    cl::init(mlir::tessel::kDefaultBucketBytes),
    cl::sub(mlir::tessel::explainCommand));
static cl::opt<std::string> picturePath(
    "picture",
    cl::desc("also draw the layout as an HTML page: the mesh's ranks and "
             "which block of each tensor every rank holds"),
    cl::value_desc("file.html"), cl::sub(mlir::tessel::explainCommand));
static cl::list<std::string> pictureTensors(
    "picture-tensors",
    cl::desc("the tensors to draw (default: the parameters and inputs)"),
    cl::value_desc("name,name,..."), cl::CommaSeparated,
    cl::sub(mlir::tessel::explainCommand));
static cl::opt<std::string> profilePath(
    "profile",
    cl::desc("machine profile of tessel calibrate: the driver's own memory "
             "and the predicted time (default: the built-in profile)"),
    cl::value_desc("profile.json"), cl::sub(mlir::tessel::explainCommand));
static cl::opt<int64_t> siteCount(
    "sites",
    cl::desc("also list the N call sites with the most predicted time per "
             "step (ops of the step as compile lowers it, by source "
             "location, as the compiled program's --profile lists the "
             "measured ones)"),
    cl::value_desc("N"), cl::init(0), cl::sub(mlir::tessel::explainCommand));
enum class Format { Text, Json };
static cl::opt<Format>
    format("format", cl::desc("output format"), cl::init(Format::Text),
           cl::values(clEnumValN(Format::Text, "text", "aligned tables"),
                      clEnumValN(Format::Json, "json", "one JSON object")),
           cl::sub(mlir::tessel::explainCommand));

int mlir::tessel::runExplain() {
  if (siteCount < 0) {
    llvm::errs() << "tessel explain: --sites must be 0 or more, not "
                 << siteCount << "\n";
    return 1;
  }
  if (layoutPath.empty() == meshSpec.empty()) {
    llvm::errs() << "tessel explain: give either --layout FILE or --mesh "
                    "(with --rules)\n";
    return 1;
  }
  if (!mlir::tessel::checkRulesHaveAMesh("tessel explain", layoutPath, meshSpec,
                                         rulesSpec))
    return 1;
  bool trainingOption =
      optimizer.getNumOccurrences() || precision.getNumOccurrences() ||
      weightDecay.getNumOccurrences() || clipNorm.getNumOccurrences() ||
      lossScale.getNumOccurrences() ||
      lossScaleGrowthInterval.getNumOccurrences();
  if (trainingOption && !train) {
    llvm::errs() << "tessel explain: --optimizer, --precision, --weight-decay, "
                    "--clip-norm and --loss-scale describe the training step: "
                    "add --train\n";
    return 1;
  }
  // As compile refuses them (they were ignored here, or explained as a
  // step compile would not build).
  mlir::tessel::StepOptionValues values;
  values.batch = &batchSize;
  values.bucketBytes = bucketBytes;
  values.weightDecay = weightDecay;
  values.clipNorm = clipNorm;
  if (!mlir::tessel::checkStepOptionValues("tessel explain", values))
    return 1;
  if (picturePath.empty() && !pictureTensors.empty()) {
    llvm::errs() << "tessel explain: --picture-tensors names what --picture "
                    "draws: add --picture FILE.html\n";
    return 1;
  }
  if (!picturePath.empty() &&
      mlir::tessel::outputIsAnInput(
          "tessel explain", picturePath,
          {{modelPath, "the model"}, {layoutPath, "the layout"}}))
    return 1;
  std::optional<::tessel::analysis::MachineProfile> profile;
  if (!profilePath.empty()) {
    std::string error;
    profile = ::tessel::analysis::readMachineProfile(profilePath, error);
    if (!profile) {
      llvm::errs() << "tessel explain: " << error << "\n";
      return 1;
    }
  }
  // A pipelined step is cut into stages at the model's layer calls.
  bool pipelined =
      mlir::tessel::pipelinesTrainingStep(train ? "train" : "none", layoutPath);
  mlir::tessel::ModelFile model(modelPath, /*inlineLayers=*/!pipelined);
  if (!model.module())
    return 1;
  if (pipelined) {
    if (!functionName.empty() || !picturePath.empty() || siteCount > 0) {
      llvm::errs() << "tessel explain: a pipelined layout explains the "
                      "stages of its training step; --function, --picture "
                      "and --sites explain one function (drop the layout's "
                      "'pipeline:' section for them)\n";
      return 1;
    }
    mlir::tessel::PipelineExplainOptions options;
    options.optimizer = optimizer;
    options.precision = precision;
    options.weightDecay = weightDecay;
    options.clipNorm = clipNorm;
    options.layoutPath = layoutPath;
    options.padUneven = padUneven;
    options.bucketBytes = bucketBytes;
    options.dimSizes.assign(dimSizes.begin(), dimSizes.end());
    options.batchSize = batchSize;
    options.json = format == Format::Json;
    return mlir::tessel::explainPipeline(
        model, options,
        profile ? *profile : ::tessel::analysis::defaultMachineProfile());
  }
  ModuleOp module = model.module();
  MLIRContext &context = model.context();

  PassManager pm(&context);
  mlir::tessel::TesselResizeDimsOptions resize;
  resize.sizes.assign(dimSizes.begin(), dimSizes.end());
  resize.batchSize = batchSize;
  if (!resize.sizes.empty() || batchSize > 0)
    pm.addPass(mlir::tessel::createTesselResizeDims(resize));
  // As compile does: einsums of three or more inputs as the pairwise ones
  // compile runs, so that the FLOPs are theirs.
  pm.addPass(mlir::tessel::createTesselDecomposeEinsum());
  if (train) {
    mlir::tessel::TesselAutodiffOptions autodiff;
    autodiff.optimizer = optimizer;
    autodiff.precision = precision;
    autodiff.weightDecay = weightDecay;
    autodiff.clipNorm = clipNorm;
    autodiff.lossScale = lossScale;
    autodiff.lossScaleGrowthInterval = lossScaleGrowthInterval;
    pm.addPass(mlir::tessel::createTesselAutodiff(autodiff));
  }
  mlir::tessel::TesselApplyLayoutOptions options;
  options.layoutFile = layoutPath;
  options.meshSpec = meshSpec;
  options.rulesSpec = rulesSpec;
  options.padUneven = padUneven;
  pm.addPass(mlir::tessel::createTesselApplyLayout(options));
  if (failed(pm.run(module)))
    return 1;

  func::FuncOp func =
      model.function(functionName.empty() && train ? StringRef("train_step")
                                                   : StringRef(functionName));
  if (!func)
    return 1;
  // A declaration has no ops to count (it was a segmentation fault).
  if (func.isExternal()) {
    bool defaulted = functionName.empty() && !train;
    llvm::errs() << "tessel explain: " << modelPath << ": "
                 << (defaulted ? "the first function, '" : "function '")
                 << func.getSymName() << (defaulted ? "', is" : "' is")
                 << " a declaration without a body; name a function with "
                    "one (--function)\n";
    return 1;
  }
  const ::tessel::analysis::MachineProfile &machine =
      profile ? *profile : ::tessel::analysis::defaultMachineProfile();
  // The passes print their own errors.
  auto run = [](PassManager &passes, ModuleOp laidOut,
                StringRef) -> std::optional<std::string> {
    if (failed(passes.run(laidOut)))
      return std::string();
    return std::nullopt;
  };
  std::string passError;
  std::optional<mlir::tessel::CountedStep> counted = mlir::tessel::countStep(
      module.clone(), func.getSymName(), bucketBytes, machine, run, passError);
  if (!counted)
    return 1;
  const ::tessel::analysis::StepTime step =
      mlir::tessel::predictStep(*counted, machine);
  const ::tessel::analysis::CostReport &report = counted->report;
  std::string profileName =
      profile ? fmt::format("profile {} ({})", profilePath.getValue(),
                            profile->description)
              : std::string("built-in default profile");
  // A profile calibrated on one rank times no collectives: on more ranks
  // its communication would cost nothing, so no time is predicted, as
  // search refuses such a profile.
  bool timed = !(machine.collectives.empty() && report.numRanks > 1);
  if (!timed)
    llvm::errs() << "tessel explain: " << profilePath
                 << " times no collectives (calibrate with --max-ranks 2 or "
                    "more): no time predicted on "
                 << report.numRanks << " ranks\n";
  if (!picturePath.empty()) {
    std::string error;
    std::string page = mlir::tessel::renderLayoutPicture(
        report, {pictureTensors.begin(), pictureTensors.end()}, error);
    if (page.empty()) {
      llvm::errs() << "tessel explain: --picture-tensors: " << error << "\n";
      return 1;
    }
    if (!mlir::tessel::writeFileAtomically(
            "tessel explain", picturePath,
            [&](raw_ostream &os) { os << page; }))
      return 1;
  }
  const ::tessel::analysis::StepTime *predicted = timed ? &step : nullptr;
  llvm::outs() << (format == Format::Json
                       ? ::tessel::analysis::formatJson(report, predicted,
                                                        profileName, siteCount)
                       : ::tessel::analysis::formatText(
                             report, predicted, profileName, siteCount));
  return 0;
}
