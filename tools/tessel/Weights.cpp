//===- Weights.cpp - tessel import-weights and tessel export-weights ------===//
//
// `import-weights` turns a PyTorch / Hugging Face safetensors file into a
// tessel checkpoint of a model, through a name map (weights/WeightMap.h):
// the parameters take the file's values and everything else the training
// state holds (the optimizer's moments, the step count) its initial value,
// computed by the model's own @init (tessel-autodiff with the optimizer
// given) on the reference evaluator. The checkpoint is written as the state
// after step 0 (DIR/step-00000000.safetensors), global, so a compiled
// program resumes from it under any layout and rank count (`--resume
// --checkpoint-dir DIR`) and `tessel-eval --checkpoint DIR` runs any
// function on it. `export-weights` writes a checkpoint's parameters back
// under their PyTorch names.
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/Commands.h"

#include "evaluator/Interpreter.h"
#include "passes/Passes.h"
#include "safetensors/CheckpointFile.h"
#include "tools/support/ModelFile.h"
#include "weights/Convert.h"

#include "mlir/IR/Builders.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/FileSystem.h"

#include <set>

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;
namespace safetensors = ::tessel::safetensors;
namespace weights = ::tessel::weights;

cl::SubCommand mlir::tessel::importWeightsCommand(
    "import-weights",
    "write a checkpoint of a model from a PyTorch safetensors file and a "
    "name map");
cl::SubCommand mlir::tessel::exportWeightsCommand(
    "export-weights",
    "write a checkpoint's parameters as a PyTorch safetensors file");

namespace {

cl::opt<std::string> modelPath(cl::Positional, cl::desc("<model.mlir>"),
                               cl::Required, cl::sub(importWeightsCommand));
cl::opt<std::string> fromPath("from", cl::desc("the PyTorch safetensors file"),
                              cl::value_desc("file"), cl::Required,
                              cl::sub(importWeightsCommand));
cl::opt<std::string> importMapPath(
    "map", cl::desc("YAML name map: PyTorch name -> {name, dims}"),
    cl::value_desc("file"), cl::Required, cl::sub(importWeightsCommand));
cl::opt<std::string> outputDir("o",
                               cl::desc("directory to write the checkpoint to "
                                        "(it must hold none yet)"),
                               cl::value_desc("dir"), cl::Required,
                               cl::sub(importWeightsCommand));
cl::list<std::string>
    keepInitial("initialize",
                cl::desc("leave this parameter to its initializer instead of "
                         "importing it (repeatable)"),
                cl::value_desc("name"), cl::sub(importWeightsCommand));
cl::opt<std::string> importOptimizer(
    "optimizer",
    cl::desc("the optimizer the checkpoint will be trained with, whose "
             "state it holds (sgd, momentum, adam or adamw)"),
    cl::init("sgd"), cl::sub(importWeightsCommand));
cl::opt<std::string>
    importPrecision("precision",
                    cl::desc("f32, or bf16 / f16 mixed precision, as the "
                             "program will be compiled"),
                    cl::init("f32"), cl::sub(importWeightsCommand));
cl::opt<std::string> importLossScale(
    "loss-scale",
    cl::desc("auto, off or the initial loss scale, as the program will be "
             "compiled (its scale is part of the state)"),
    cl::init("auto"), cl::sub(importWeightsCommand));
cl::list<std::string> importDimSizes(
    "dim-size",
    cl::desc("NAME=SIZE: resize a named dimension of the model (repeatable)"),
    cl::sub(importWeightsCommand));

cl::opt<std::string> checkpointPath(cl::Positional,
                                    cl::desc("<checkpoint file or directory>"),
                                    cl::Required,
                                    cl::sub(exportWeightsCommand));
cl::opt<std::string> exportMapPath(
    "map", cl::desc("YAML name map: PyTorch name -> {name, dims}"),
    cl::value_desc("file"), cl::Required, cl::sub(exportWeightsCommand));
cl::opt<std::string> outputFile("o",
                                cl::desc("the PyTorch safetensors file to "
                                         "write"),
                                cl::value_desc("file"), cl::Required,
                                cl::sub(exportWeightsCommand));

/// The reference evaluator's spec of a tessel type.
::tessel::ref::TensorSpec specOf(Type type) {
  return ::tessel::eval::specOf(cast<NamedTensorType>(type));
}

/// Every parameter of the model, once per name, in the order of first use.
std::vector<weights::Parameter> parametersOf(ModuleOp module) {
  std::vector<weights::Parameter> parameters;
  std::set<std::string> seen;
  module.walk([&](ParameterOp parameter) {
    std::string name = parameter.getName().str();
    if (seen.insert(name).second)
      parameters.push_back({name, specOf(parameter.getType())});
  });
  return parameters;
}

/// A function returning every parameter of the model (for a model without
/// @forward, whose state is its parameters alone).
func::FuncOp parameterFunction(ModuleOp module) {
  std::vector<ParameterOp> parameters;
  std::set<std::string> seen;
  module.walk([&](ParameterOp parameter) {
    if (seen.insert(parameter.getName().str()).second)
      parameters.push_back(parameter);
  });
  OpBuilder builder(module.getBodyRegion());
  builder.setInsertionPointToEnd(module.getBody());
  SmallVector<Type> types;
  for (ParameterOp parameter : parameters)
    types.push_back(parameter.getType());
  Location loc = module.getLoc();
  auto function = func::FuncOp::create(builder, loc, "tessel_import_state",
                                       builder.getFunctionType({}, types));
  builder.setInsertionPointToStart(function.addEntryBlock());
  SmallVector<Value> values;
  for (auto [index, parameter] : llvm::enumerate(parameters)) {
    values.push_back(builder.clone(*parameter)->getResult(0));
    function.setResultAttr(index, "tessel.name", parameter.getNameAttr());
  }
  func::ReturnOp::create(builder, loc, values);
  return function;
}

int fail(const std::string &message) {
  llvm::errs() << "tessel: " << message << "\n";
  return 1;
}

} // namespace

int mlir::tessel::runImportWeights() {
  if (llvm::sys::fs::exists(outputDir) &&
      safetensors::latestCheckpoint(outputDir))
    return fail(outputDir + " already holds checkpoints (" +
                *safetensors::latestCheckpoint(outputDir) +
                "): give a new or empty directory");
  ModelFile model(modelPath);
  if (!model.module())
    return 1;
  ModuleOp module = model.module();
  if (!importDimSizes.empty()) {
    PassManager resize(&model.context());
    TesselResizeDimsOptions options;
    options.sizes.assign(importDimSizes.begin(), importDimSizes.end());
    resize.addPass(createTesselResizeDims(options));
    if (failed(resize.run(module)))
      return 1;
  }
  std::vector<weights::Parameter> parameters = parametersOf(module);
  std::set<std::string> keep(keepInitial.begin(), keepInitial.end());
  for (const std::string &name : keep)
    if (llvm::none_of(parameters, [&](const weights::Parameter &parameter) {
          return parameter.name == name;
        }))
      return fail("--initialize " + name + ": the model has no parameter '" +
                  name + "'");
  std::string error;
  std::optional<weights::WeightMap> map =
      weights::readWeightMap(importMapPath, error);
  if (!map)
    return fail(error);
  std::optional<weights::Values> values =
      weights::importWeights(*map, fromPath, parameters, keep, error);
  if (!values)
    return fail(error);

  // The state a program starts from: @init of the training step, or the
  // parameters alone for a model with nothing to train.
  func::FuncOp init;
  if (module.lookupSymbol<func::FuncOp>("forward")) {
    PassManager autodiff(&model.context());
    TesselAutodiffOptions options;
    options.optimizer = importOptimizer;
    options.precision = importPrecision;
    options.lossScale = importLossScale;
    autodiff.addPass(createTesselAutodiff(options));
    if (failed(autodiff.run(module)))
      return 1;
    init = module.lookupSymbol<func::FuncOp>("init");
  } else {
    init = parameterFunction(module);
  }
  FailureOr<std::vector<::tessel::eval::PerRank>> state =
      ::tessel::eval::interpret(init, {}, *values);
  if (failed(state))
    return 1;

  std::vector<std::vector<unsigned char>> bytes(state->size());
  std::vector<safetensors::CheckpointTensor> tensors;
  for (auto [index, perRank] : llvm::enumerate(*state)) {
    const ::tessel::ref::Tensor &tensor = perRank.front();
    auto name = init.getResultAttrOfType<StringAttr>(index, "tessel.name");
    if (!name)
      return fail("@init's result " + std::to_string(index) + " has no name");
    safetensors::encode(safetensors::dtypeOf(tensor.spec.type), tensor.data,
                        bytes[index]);
    tensors.push_back({name.str(), tensor.spec, bytes[index].data()});
  }
  if (!safetensors::writeCheckpointFile(outputDir, 0, tensors, error))
    return fail(error);
  llvm::outs() << "imported " << values->size() << " of " << parameters.size()
               << " parameters from " << fromPath << " into "
               << safetensors::checkpointPath(outputDir, 0) << " ("
               << tensors.size() << " tensors of state";
  if (module.lookupSymbol<func::FuncOp>("forward"))
    llvm::outs() << " for --optimizer " << importOptimizer;
  llvm::outs() << ")\n";
  return 0;
}

int mlir::tessel::runExportWeights() {
  std::string error;
  std::optional<std::string> resolved =
      safetensors::resolveCheckpoint(checkpointPath, error);
  if (!resolved)
    return fail(error);
  std::string path = *resolved;
  // A sharded checkpoint is an index and shard files: none is an output.
  std::vector<std::string> inputs = {path, exportMapPath};
  safetensors::CheckpointFile opened;
  if (opened.open(path, error)) {
    std::vector<std::string> files = opened.files();
    inputs.insert(inputs.end(), files.begin(), files.end());
  }
  for (const std::string &input : inputs)
    if (llvm::sys::fs::equivalent(outputFile, input))
      return fail("-o " + outputFile + " is an input; give another file");
  std::optional<weights::WeightMap> map =
      weights::readWeightMap(exportMapPath, error);
  if (!map)
    return fail(error);
  if (!weights::exportWeights(*map, path, outputFile, error))
    return fail(error);
  llvm::outs() << "exported " << path << " to " << outputFile << "\n";
  return 0;
}
