//===- Compile.cpp - tessel compile and tessel run ------------------------===//
//
// `compile` runs the whole pipeline on a model and a layout: the training
// step (tessel-autodiff; with --mode infer, tessel-lift-parameters makes a
// forward-only program), the layout, partitioning, cheaper collectives, the
// lowering to runtime calls, LLVM IR, an object file, and an executable
// linked with the runtime. `--emit` stops at any stage and writes it.
// `run` compiles to a temporary executable (or -o) and starts it with as
// many ranks as the layout's mesh has, under mpirun or srun (Launcher.h).
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/Commands.h"
#include "tools/tessel/Launcher.h"

#include "codegen/EmitObject.h"
#include "codegen/Link.h"
#include "codegen/Passes.h"
#include "codegen/Pipeline.h"
#include "tools/support/ModelFile.h"
#include "tools/support/OptionValues.h"
#include "tools/support/OutputFile.h"

#include "mlir/Pass/PassManager.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <cmath>
#include <limits>
#include <sstream>

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

cl::SubCommand mlir::tessel::compileCommand(
    "compile", "compile a model and a layout into an SPMD executable");
cl::SubCommand mlir::tessel::runCommand(
    "run", "compile, then run under mpirun (options after -- go to the "
           "program)");

namespace {

enum class Stage { Mlir, Llvm, Object, Executable };
enum class Mode { Train, Infer };

// Options shared by compile and run.
cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model.mlir>"),
                               cl::Required, cl::sub(compileCommand),
                               cl::sub(runCommand));
cl::opt<std::string> layoutPath("layout", cl::desc("YAML layout file"),
                                cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<std::string> meshSpec("mesh",
                              cl::desc("mesh string, e.g. data:2;model:4"),
                              cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<std::string>
    rulesSpec("rules", cl::desc("rules string, e.g. batch:data;hidden:model"),
              cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<bool> padUneven("pad-uneven",
                        cl::desc("pad splits that do not divide their "
                                 "dimension (layout files: pad_uneven: true)"),
                        cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<int64_t> bucketBytes(
    "bucket-bytes",
    cl::desc("all-reduce (reduce-scatter, all-gather) tensors of up to this "
             "many bytes together, in buffers of up to this size (0: one "
             "call per tensor)"),
    cl::init(kDefaultBucketBytes), cl::sub(compileCommand),
    cl::sub(runCommand));
cl::opt<Mode> mode(
    "mode", cl::desc("the program to build"), cl::init(Mode::Train),
    cl::values(clEnumValN(Mode::Train, "train",
                          "training: init, train_step and the optimizer"),
               clEnumValN(Mode::Infer, "infer",
                          "forward-only: the model's functions, reading "
                          "their parameters from a checkpoint (--optimizer, "
                          "--precision, --weight-decay and --clip-norm do "
                          "not apply)")),
    cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<std::string> optimizer("optimizer",
                               cl::desc("sgd, momentum, adam or adamw"),
                               cl::init("sgd"), cl::sub(compileCommand),
                               cl::sub(runCommand));
cl::opt<std::string> precision("precision",
                               cl::desc("f32, or bf16 / f16 mixed precision"),
                               cl::init("f32"), cl::sub(compileCommand),
                               cl::sub(runCommand));
cl::opt<std::string> lossScale(
    "loss-scale",
    cl::desc("dynamic loss scaling of a mixed-precision step: auto (on from "
             "32768 with --precision f16, off otherwise), off, or the "
             "initial scale (docs/training.md)"),
    cl::init("auto"), cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<int64_t> lossScaleGrowthInterval(
    "loss-scale-growth-interval",
    cl::desc("finite steps in a row after which the loss scale doubles"),
    cl::init(2000), cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<double> weightDecay("weight-decay", cl::desc("weight decay"),
                            cl::init(0.0), cl::sub(compileCommand),
                            cl::sub(runCommand));
cl::opt<double> clipNorm("clip-norm",
                         cl::desc("clip gradients to this global L2 norm"),
                         cl::init(0.0), cl::sub(compileCommand),
                         cl::sub(runCommand));
cl::opt<bool> noFusion(
    "no-fusion",
    cl::desc("run every element-wise op as its own runtime call instead of "
             "fusing chains of them (tessel-fuse-elementwise)"),
    cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<bool> mergeFusedOutputs(
    "merge-fused-outputs",
    cl::desc("compute a fused op and the fused op after it that reads its "
             "value in one pass of several results "
             "(tessel-merge-fused-outputs; CPU target). Off by default: on "
             "one core a rank the merged passes ran 5 to 10% slower steps "
             "(docs/codegen.md)"),
    cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<bool> gpuFusion(
    "gpu-fusion",
    cl::desc("with --target cuda, fuse element-wise chains too, into the GPU "
             "runtime's fused kernel (one launch per chain); off by default "
             "until that kernel has run on a GPU (docs/gpu.md)"),
    cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<bool> noOverlap(
    "no-overlap",
    cl::desc("run collectives blocking, in program order, instead of "
             "starting each where it is and waiting for it before its first "
             "user (tessel-lower-to-runtime)"),
    cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<bool> noDecomposeEinsum(
    "no-decompose-einsum",
    cl::desc("leave einsums of three or more inputs whole (the runtime's "
             "reference kernel) instead of splitting them into pairwise "
             "ones (tessel-decompose-einsum)"),
    cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<int64_t> batchSize("batch",
                           cl::desc("examples per step: resizes the model's "
                                    "'batch' dimension and every dimension "
                                    "that holds it under another name"),
                           cl::init(0), cl::sub(compileCommand),
                           cl::sub(runCommand));
cl::list<std::string> dimSizes("dim-size",
                               cl::desc("NAME=SIZE: resize a named dimension "
                                        "of the model (repeatable)"),
                               cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<std::string> outputPath("o", cl::desc("output file"),
                                cl::value_desc("path"), cl::sub(compileCommand),
                                cl::sub(runCommand));
cl::opt<Stage>
    emit("emit", cl::desc("the stage to write"), cl::init(Stage::Executable),
         cl::values(clEnumValN(Stage::Mlir, "mlir",
                               "the per-rank program (tessel and mesh ops)"),
                    clEnumValN(Stage::Llvm, "llvm", "LLVM IR of the program"),
                    clEnumValN(Stage::Object, "obj", "an object file"),
                    clEnumValN(Stage::Executable, "exe",
                               "an executable linked with the runtime")),
         cl::sub(compileCommand));
// The same per-rank program runs on either runtime: the target only picks
// the library it is linked with (docs/gpu.md).
cl::opt<RuntimeTarget> target(
    "target", cl::desc("the runtime to link with"),
    cl::init(RuntimeTarget::Cpu),
    cl::values(clEnumValN(RuntimeTarget::Cpu, "cpu",
                          "the CPU runtime (oneDNN, MPI)"),
               clEnumValN(RuntimeTarget::Cuda, "cuda",
                          "the GPU runtime (cuBLAS, cuDNN, NCCL), one rank "
                          "per GPU")),
    cl::sub(compileCommand), cl::sub(runCommand));
cl::opt<int> numRanks("n", cl::desc("number of ranks (the mesh's by default)"),
                      cl::init(0), cl::sub(runCommand));

/// Refuses option values that would otherwise be ignored or compiled into
/// a program that trains on garbage (a negative batch, a NaN decay).
bool checkOptionValues() {
  StepOptionValues values;
  values.batch = &batchSize;
  values.bucketBytes = bucketBytes;
  values.weightDecay = weightDecay;
  values.clipNorm = clipNorm;
  if (!checkStepOptionValues("tessel", values))
    return false;
  if (numRanks < 0) {
    llvm::errs() << "tessel: --n " << numRanks
                 << ": a rank count must be positive\n";
    return false;
  }
  return true;
}

/// Compiles the model to `stage` at `output`; on success sets `ranks` to
/// the number of ranks its mesh has.
int compileTo(const char *tool, Stage stage, StringRef output, int64_t &ranks) {
  if (!layoutPath.empty() && !meshSpec.empty()) {
    llvm::errs() << "tessel: give either --layout FILE or --mesh (with "
                    "--rules), not both\n";
    return 1;
  }
  if (!checkRulesHaveAMesh("tessel", layoutPath, meshSpec, rulesSpec))
    return 1;
  if (!checkOptionValues() ||
      outputIsAnInput("tessel", output,
                      {{modelPath, "the model"}, {layoutPath, "the layout"}}))
    return 1;
  bool pipelined = pipelinesTrainingStep(
      mode == Mode::Infer ? "infer" : "train", layoutPath);
  ModelFile model(modelPath, /*inlineLayers=*/!pipelined);
  if (!model.module())
    return 1;
  ModuleOp module = model.module();
  MLIRContext &context = model.context();
  context.loadDialect<LLVM::LLVMDialect>();

  CompilePipelineOptions options;
  options.mode = mode == Mode::Infer ? "infer" : "train";
  options.optimizer = optimizer;
  options.precision = precision;
  options.weightDecay = weightDecay;
  options.clipNorm = clipNorm;
  options.lossScale = lossScale;
  options.lossScaleGrowthInterval = lossScaleGrowthInterval;
  options.layoutFile = layoutPath;
  options.meshSpec = meshSpec;
  options.rulesSpec = rulesSpec;
  options.padUneven = padUneven;
  options.bucketBytes = bucketBytes;
  // The GPU runtime's fused kernel (runtime/gpu/FusedElementwise.cu) is
  // checked against the CPU's on the host but has not run on a device yet,
  // so --target cuda fuses only when asked to.
  options.fuseElementwise =
      !noFusion && (target == RuntimeTarget::Cpu || gpuFusion);
  // The GPU runtime's fused kernel writes one result.
  options.mergeFusedOutputs = mergeFusedOutputs && target == RuntimeTarget::Cpu;
  options.decomposeEinsum = !noDecomposeEinsum;
  options.overlapCommunication = !noOverlap;
  // The CUDA runtime's halo exchanges block on its stream: splitting a
  // convolution there would add launches and overlap nothing.
  options.splitHaloConvolutions = target == RuntimeTarget::Cpu;
  options.dimSizes = std::vector<std::string>(dimSizes.begin(), dimSizes.end());
  options.batchSize = batchSize;
  options.lower = false;
  PassManager pm(&context);
  buildCompilePipeline(pm, options);
  if (failed(pm.run(module)))
    return 1;
  auto mesh = module->getAttrOfType<MeshAttr>("tessel.mesh");
  ranks = mesh ? mesh.getNumRanks() : 1;
  if (stage == Stage::Mlir)
    return writeFileAtomically("tessel", output,
                               [&](raw_ostream &os) { module.print(os); })
               ? 0
               : 1;

  PassManager lower(&context);
  TesselLowerToRuntimeOptions lowering;
  lowering.overlapCommunication = !noOverlap;
  lower.addPass(createTesselLowerToRuntime(lowering));
  if (failed(lower.run(module)))
    return 1;
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateToLLVMIR(module, llvmContext);
  if (!llvmModule)
    return 1;
  if (stage == Stage::Llvm)
    return writeFileAtomically(
               "tessel", output,
               [&](raw_ostream &os) { llvmModule->print(os, nullptr); })
               ? 0
               : 1;

  // The object and the executable are written beside their target and
  // renamed over it when whole. An executable's object is a private
  // temporary file, never OUTPUT.o, which may be the user's.
  std::string error;
  ReplacingOutput replacing(output);
  SmallString<128> objectPath;
  if (stage == Stage::Object) {
    objectPath = replacing.path();
  } else if (std::error_code code = llvm::sys::fs::createTemporaryFile(
                 "tessel-program", "o", objectPath)) {
    llvm::errs() << "tessel: no temporary file: " << code.message() << "\n";
    return 1;
  }
  llvm::FileRemover removeObject(objectPath, stage != Stage::Object);
  if (failed(emitObjectFile(*llvmModule, objectPath, error))) {
    llvm::errs() << "tessel: " << error << "\n";
    return 1;
  }
  if (stage != Stage::Object &&
      failed(
          linkExecutable(tool, objectPath, replacing.path(), target, error))) {
    llvm::errs() << "tessel: " << error << "\n";
    return 1;
  }
  return replacing.commit("tessel") ? 0 : 1;
}

/// The default output: the model's name with the stage's extension.
std::string defaultOutput(Stage stage) {
  StringRef stem = llvm::sys::path::stem(modelPath);
  switch (stage) {
  case Stage::Mlir:
    return (stem + ".rank.mlir").str();
  case Stage::Llvm:
    return (stem + ".ll").str();
  case Stage::Object:
    return (stem + ".o").str();
  case Stage::Executable:
    return (stem + ".spmd").str();
  }
  llvm_unreachable("unknown stage");
}

} // namespace

int mlir::tessel::runCompile(const char *tool) {
  int64_t ranks = 0;
  std::string output = outputPath.empty() ? defaultOutput(emit) : outputPath;
  return compileTo(tool, emit, output, ranks);
}

int mlir::tessel::runRun(const char *tool, ArrayRef<std::string> programArgs) {
  if (!checkLauncherOptions())
    return 1;
  SmallString<128> output(outputPath);
  if (output.empty()) {
    if (std::error_code code = llvm::sys::fs::createTemporaryFile(
            llvm::sys::path::stem(modelPath), "spmd", output)) {
      llvm::errs() << "tessel: no temporary file: " << code.message() << "\n";
      return 1;
    }
  }
  int64_t ranks = 0;
  if (int status = compileTo(tool, Stage::Executable, output, ranks))
    return status;
  // MPI numbers ranks with an int; a larger mesh (possible with padding,
  // which lets any mesh split any dimension) must not reach mpirun, where
  // the count would wrap.
  if (ranks > std::numeric_limits<int>::max()) {
    llvm::errs() << "tessel: the layout's mesh has " << ranks
                 << " ranks, more than MPI can start (2^31 - 1)\n";
    return 1;
  }
  if (numRanks != 0 && numRanks != ranks) {
    llvm::errs() << "tessel: the layout's mesh has " << ranks
                 << " ranks, but -n asks for " << numRanks << "\n";
    return 1;
  }
  int status = launchProgram(output, ranks, programArgs);
  if (outputPath.empty())
    llvm::sys::fs::remove(output);
  return status;
}
