//===- tessel-eval.cpp - run a tessel function with the reference kernels -===//
//
// tessel-eval MODEL.mlir [--function NAME] [--input NAME=FILE.npy ...]
//             [--random-inputs [--seed N]] [--checkpoint FILE_OR_DIR]
//             [--output-dir DIR]
//
// Prints every result (and writes it as .npy with --output-dir). A program
// with a mesh runs on every rank of it; results are then printed and written
// per rank.
//
// With --checkpoint FILE_OR_DIR, the function runs on a checkpoint's weights
// (trained by a compiled program, or imported by `tessel import-weights`):
// each tessel.parameter, and each argument named like a tensor of the
// checkpoint, takes the checkpoint's value, under any layout the function
// was partitioned for.
//
// tessel-eval MODEL.mlir --check-gradients [--promote-f64] checks instead the
// gradients of the function's scalar loss (as tessel-autodiff builds them)
// against central finite differences.
//
//===----------------------------------------------------------------------===//

#include "dialect/TesselDialect.h"
#include "evaluator/Blocks.h"
#include "evaluator/Inputs.h"
#include "reference/npy/NpyFile.h"
#include "safetensors/CheckpointFile.h"
#include "tools/support/ModelFile.h"
#include "tools/support/OptionValues.h"
#include "tools/support/ToolVersion.h"
#include "tools/tessel-eval/GradientCheck.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"

#include <cmath>
#include <map>
#include <sstream>

using namespace mlir;
namespace cl = llvm::cl;

// tessel-eval's own options, the only ones --help shows (LLVM's libraries
// register hundreds more).
static cl::OptionCategory evalOptions("tessel-eval options");
static cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model.mlir>"),
                                      cl::Required);
static cl::opt<std::string>
    functionName("function", cl::cat(evalOptions),
                 cl::desc("function to run (default: the only or first one)"));
static cl::list<std::string>
    inputFiles("input", cl::cat(evalOptions),
               cl::desc("NAME=FILE.npy; {rank} in FILE is the rank"));
static cl::opt<bool>
    randomInputs("random-inputs", cl::cat(evalOptions),
                 cl::desc("fill inputs not given with valid random values"));
static cl::opt<uint64_t> seed("seed", cl::cat(evalOptions),
                              cl::desc("seed of --random-inputs"), cl::init(0));
static cl::opt<std::string>
    outputDir("output-dir", cl::cat(evalOptions),
              cl::desc("write result<i>[.rank<r>].npy here"));
static cl::opt<std::string> checkAgainst(
    "check-against", cl::cat(evalOptions),
    cl::desc("compare each result with DIR/result<i>.npy (a reference run)"));
static cl::opt<double>
    relativeTolerance("rtol", cl::cat(evalOptions),
                      cl::desc("relative tolerance of --check-against"),
                      cl::init(1e-5));
static cl::opt<double>
    absoluteTolerance("atol", cl::cat(evalOptions),
                      cl::desc("absolute tolerance of --check-against"),
                      cl::init(1e-6));
static cl::opt<std::string> checkpointPath(
    "checkpoint", cl::cat(evalOptions),
    cl::desc("take the parameters (and arguments named like its tensors) "
             "from this checkpoint, or the newest one in this directory"),
    cl::value_desc("file or directory"));
static cl::opt<unsigned> printLimit("print-limit", cl::cat(evalOptions),
                                    cl::desc("elements printed per result"),
                                    cl::init(8));

static cl::opt<bool> checkGradients(
    "check-gradients", cl::cat(evalOptions),
    cl::desc("check the gradients of the function's scalar loss against "
             "central finite differences (inputs as for a run)"));
static cl::opt<bool> promoteF64(
    "promote-f64", cl::cat(evalOptions),
    cl::desc("compute in f64 instead of f32 (for --check-gradients)"));
static cl::opt<unsigned> gradientSamples("gradient-samples",
                                         cl::cat(evalOptions),
                                         cl::desc("elements checked per input"),
                                         cl::init(16));
static cl::opt<double> gradientStep("gradient-step", cl::cat(evalOptions),
                                    cl::desc("finite-difference step"),
                                    cl::init(1e-6));
static cl::opt<double> gradientTolerance(
    "gradient-tolerance", cl::cat(evalOptions),
    cl::desc("largest |fd - ad| / max(1, |fd|, |ad|) accepted"),
    cl::init(1e-6));

/// Prints a tensor's spec and its first elements.
static void printTensor(llvm::raw_ostream &os, const std::string &label,
                        const ::tessel::ref::Tensor &tensor) {
  os << label << ": [";
  for (int i = 0; i < tensor.rank(); ++i)
    os << (i ? ", " : "") << tensor.spec.dims[i] << ":" << tensor.spec.shape[i];
  os << "] " << ::tessel::ref::elementTypeName(tensor.spec.type) << " =";
  for (size_t i = 0; i < tensor.data.size() && i < printLimit; ++i)
    os << " " << llvm::format("%.8g", tensor.data[i]);
  if (tensor.data.size() > printLimit)
    os << " ... (" << tensor.data.size() << " elements)";
  os << "\n";
}

/// Compares a result with the same-named .npy file of --check-against;
/// prints the largest difference and returns false if it is too large.
static bool compareWithReference(const std::string &name,
                                 const ::tessel::ref::Tensor &tensor) {
  std::string path = checkAgainst + "/" + name + ".npy";
  ::tessel::ref::Tensor reference;
  std::string error;
  if (!::tessel::ref::readNpyAs(path, tensor.spec, reference, error)) {
    llvm::errs() << name << ": " << error << "\n";
    return false;
  }
  double worst = 0;
  for (size_t i = 0; i < tensor.data.size(); ++i) {
    double difference = std::abs(tensor.data[i] - reference.data[i]);
    double allowed =
        absoluteTolerance + relativeTolerance * std::abs(reference.data[i]);
    worst = std::max(worst, difference);
    if (!(difference <= allowed)) {
      llvm::errs() << name << ": element " << i << " is " << tensor.data[i]
                   << " but " << reference.data[i] << " in " << path << "\n";
      return false;
    }
  }
  llvm::outs() << name << ": matches " << path << " (largest difference "
               << llvm::format("%.3g", worst) << "; rtol "
               << llvm::format("%g", relativeTolerance.getValue()) << ", atol "
               << llvm::format("%g", absoluteTolerance.getValue()) << ")\n";
  return true;
}

/// Reads the weights `func` needs from --checkpoint: the value of every
/// tessel.parameter into `parameters` (each must be there, with the
/// parameter's dims and shape) and of every argument the checkpoint has a
/// tensor for and no --input names into `arguments`. Prints the error and
/// returns false when they cannot be read.
static bool
readCheckpointWeights(func::FuncOp func,
                      const std::map<std::string, std::string> &files,
                      ::tessel::eval::ParameterValues &parameters,
                      ::tessel::eval::ParameterValues &arguments) {
  namespace safetensors = ::tessel::safetensors;
  std::string error;
  std::optional<std::string> resolved =
      safetensors::resolveCheckpoint(checkpointPath, error);
  if (!resolved) {
    llvm::errs() << "--checkpoint " << error << "\n";
    return false;
  }
  std::string path = *resolved;
  safetensors::CheckpointFile file;
  if (!file.open(path, error)) {
    llvm::errs() << error << "\n";
    return false;
  }
  // Reads tensor `name` as written and checks it against `expected`.
  auto read = [&](const std::string &name,
                  const ::tessel::ref::TensorSpec &expected,
                  const std::string &what,
                  ::tessel::eval::ParameterValues &into) {
    ::tessel::ref::TensorSpec spec;
    std::vector<unsigned char> bytes;
    std::vector<double> values;
    if (!file.read(name, spec, bytes, error) ||
        !safetensors::decode(safetensors::dtypeOf(spec.type), bytes, values)) {
      llvm::errs() << error << "\n";
      return false;
    }
    if (spec.dims != expected.dims || spec.shape != expected.shape) {
      llvm::errs() << "checkpoint " << path << ": tensor '" << name << "' is "
                   << safetensors::describe(spec) << ", but the function has "
                   << what << " '" << name << "' as "
                   << safetensors::describe(expected) << "\n";
      return false;
    }
    into[name] = ::tessel::ref::Tensor(spec, std::move(values));
    return true;
  };
  bool ok = true;
  func.walk([&](mlir::tessel::ParameterOp parameter) {
    std::string name = parameter.getName().str();
    if (!ok || parameters.count(name))
      return;
    std::optional<mlir::tessel::NamedTensorType> global =
        parameter.getGlobalType();
    ::tessel::ref::TensorSpec expected =
        ::tessel::eval::specOf(global ? *global : parameter.getType());
    if (!file.has(name)) {
      llvm::errs() << "checkpoint " << path << ": it has no tensor '" << name
                   << "', which parameter '" << name << "' of function '"
                   << func.getSymName() << "' needs\n";
      ok = false;
      return;
    }
    ok = read(name, expected, "parameter", parameters);
  });
  for (unsigned index = 0; ok && index < func.getNumArguments(); ++index) {
    std::string name = ::tessel::eval::argumentName(func, index);
    if (files.count(name) || !file.has(name))
      continue;
    auto type = dyn_cast<mlir::tessel::NamedTensorType>(
        func.getArgument(index).getType());
    auto global = func.getArgAttrOfType<TypeAttr>(
        index, ::tessel::eval::kGlobalTypeAttrName);
    if (global)
      type = dyn_cast<mlir::tessel::NamedTensorType>(global.getValue());
    if (type)
      ok = read(name, ::tessel::eval::specOf(type), "argument", arguments);
  }
  return ok;
}

/// Refuses tolerances and steps that are NaN, infinite or of the wrong
/// sign: they would be used as given, so that every comparison fails for a
/// reason the message would not name.
static bool checkNumericOptions() {
  struct Bound {
    const char *option;
    double value;
    bool positive;
  };
  for (const Bound &bound :
       {Bound{"rtol", relativeTolerance, false},
        Bound{"atol", absoluteTolerance, false},
        Bound{"gradient-step", gradientStep, true},
        Bound{"gradient-tolerance", gradientTolerance, false}}) {
    if (std::isfinite(bound.value) &&
        (bound.positive ? bound.value > 0 : bound.value >= 0))
      continue;
    std::ostringstream value; // "nan" and "-1" as given, not %e
    value << bound.value;
    llvm::errs() << "tessel-eval: --" << bound.option << " " << value.str()
                 << ": must be a finite number"
                 << (bound.positive ? " above 0" : ", 0 or more") << "\n";
    return false;
  }
  return true;
}

/// Whether writing result `path` would replace a file the run reads: an
/// --input (each rank's, where its name has {rank}) or the reference of
/// --check-against, which the result would then be compared with.
static bool resultIsAnInput(const std::string &path,
                            const std::map<std::string, std::string> &files,
                            int64_t ranks) {
  std::vector<std::pair<std::string, std::string>> inputs;
  for (const auto &[name, pattern] : files) {
    bool perRank = pattern.find("{rank}") != std::string::npos;
    for (int64_t rank = 0; rank < (perRank ? ranks : 1); ++rank) {
      std::string file = pattern;
      for (size_t at = file.find("{rank}"); at != std::string::npos;
           at = file.find("{rank}", at))
        file.replace(at, 6, std::to_string(rank));
      inputs.push_back({file, "input '" + name + "'"});
    }
  }
  for (const auto &[file, what] : inputs) {
    bool same = false;
    if (!llvm::sys::fs::equivalent(path, file, same) && same) {
      llvm::errs() << "tessel-eval: --output-dir " << outputDir
                   << " would write " << path << " over " << what
                   << "; write the results elsewhere\n";
      return true;
    }
  }
  return false;
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  if (!mlir::tessel::checkNoEmptyPaths(
          "tessel-eval", argc, argv,
          {"output-dir", "check-against", "checkpoint"}))
    return 1;
  cl::HideUnrelatedOptions(evalOptions);
  mlir::tessel::setToolVersionPrinter("tessel-eval");
  cl::ParseCommandLineOptions(argc, argv, "tessel reference evaluator\n");
  if (!mlir::tessel::checkNoOptionRepeated("tessel-eval"))
    return 1;

  mlir::tessel::ModelFile model(modelPath);
  if (!model.module())
    return 1;
  ModuleOp module = model.module();

  func::FuncOp func = model.function(functionName);
  if (!func)
    return 1;

  std::map<std::string, std::string> files;
  for (const std::string &spec : inputFiles) {
    size_t eq = spec.find('=');
    if (eq == std::string::npos || eq == 0) {
      llvm::errs() << "--input '" << spec << "': expected NAME=FILE.npy\n";
      return 1;
    }
    std::string name = spec.substr(0, eq), file = spec.substr(eq + 1);
    if (auto [given, inserted] = files.emplace(name, file); !inserted) {
      llvm::errs() << "tessel-eval: --input '" << name << "' is given twice ("
                   << given->second << " and " << file << ")\n";
      return 1;
    }
  }
  if (!checkNumericOptions())
    return 1;
  // The results would be written over the references and then compared
  // with themselves: every check would pass.
  if (bool same = false;
      !outputDir.empty() && !checkAgainst.empty() &&
      !llvm::sys::fs::equivalent(outputDir, checkAgainst, same) && same) {
    llvm::errs() << "tessel-eval: --output-dir " << outputDir
                 << " is the --check-against directory; the results would "
                    "replace the references they are compared with\n";
    return 1;
  }
  if (checkGradients && !checkpointPath.empty()) {
    llvm::errs() << "--checkpoint runs a function on trained weights; "
                    "--check-gradients checks gradients at random points: "
                    "give one of them\n";
    return 1;
  }
  ::tessel::eval::ParameterValues parameters, arguments;
  if (!checkpointPath.empty() &&
      !readCheckpointWeights(func, files, parameters, arguments))
    return 1;
  if (checkGradients) {
    if (promoteF64)
      mlir::tessel::promoteToF64(module);
    mlir::tessel::GradientCheckOptions options;
    options.samples = gradientSamples;
    options.step = gradientStep;
    options.tolerance = gradientTolerance;
    options.files = files;
    options.seed = seed;
    return failed(mlir::tessel::checkGradients(func, options)) ? 1 : 0;
  }
  std::optional<uint64_t> randomSeed;
  if (randomInputs)
    randomSeed = seed;
  FailureOr<std::vector<::tessel::eval::PerRank>> inputs =
      ::tessel::eval::buildInputs(func, files, randomSeed, arguments);
  if (failed(inputs))
    return 1;
  FailureOr<std::vector<::tessel::eval::PerRank>> results =
      ::tessel::eval::interpret(func, *inputs, parameters);
  if (failed(results))
    return 1;

  if (!outputDir.empty() && llvm::sys::fs::create_directories(outputDir)) {
    llvm::errs() << outputDir << ": cannot create directory\n";
    return 1;
  }
  ::tessel::layout::Mesh mesh = ::tessel::eval::meshOf(func);
  // Every result's name, then its tensor: all are checked against the
  // inputs before the first is written.
  std::vector<std::pair<std::string, ::tessel::ref::Tensor>> shown;
  for (auto [index, perRank] : llvm::enumerate(*results)) {
    // A partitioned function's result is shown whole, put back together
    // from the ranks' blocks; any other per-rank result rank by rank.
    std::string label = "result" + std::to_string(index);
    auto globalType = func.getResultAttrOfType<TypeAttr>(
        index, ::tessel::eval::kGlobalTypeAttrName);
    if (globalType) {
      ::tessel::ref::Tensor whole;
      std::string error;
      if (!::tessel::eval::assembleGlobal(
              perRank,
              cast<mlir::tessel::NamedTensorType>(globalType.getValue()), mesh,
              whole, error)) {
        llvm::errs() << label << ": " << error << "\n";
        return 1;
      }
      shown.push_back({label, whole});
    } else {
      for (auto [rank, tensor] : llvm::enumerate(perRank))
        shown.push_back({perRank.size() > 1
                             ? label + ".rank" + std::to_string(rank)
                             : label,
                         tensor});
    }
  }
  if (!outputDir.empty())
    for (const auto &[name, tensor] : shown)
      if (resultIsAnInput(outputDir + "/" + name + ".npy", files,
                          mesh.numRanks()))
        return 1;
  bool mismatch = false;
  for (const auto &[name, tensor] : shown) {
    printTensor(llvm::outs(), name, tensor);
    std::string error;
    if (!outputDir.empty() &&
        !::tessel::ref::writeNpy(outputDir + "/" + name + ".npy", tensor,
                                 error)) {
      llvm::errs() << error << "\n";
      return 1;
    }
    if (!checkAgainst.empty())
      mismatch |= !compareWithReference(name, tensor);
  }
  if (mismatch)
    return 1;
  return 0;
}
