//===- Inputs.cpp - the arguments a function is evaluated on --------------===//

#include "evaluator/Inputs.h"

#include "dialect/MeshConversion.h"
#include "evaluator/kernels/Initializers.h"
#include "evaluator/npy/NpyFile.h"

using namespace mlir;
using namespace mlir::tessel;
namespace ref = ::tessel::ref;
namespace layout = ::tessel::layout;
using namespace ::tessel::eval;

namespace tessel::eval {
std::string argumentName(func::FuncOp func, unsigned index) {
  StringRef name = getTensorName(func.getArgument(index));
  return name.empty() ? "arg" + std::to_string(index) : name.str();
}
} // namespace tessel::eval

namespace tessel::eval {
std::optional<int64_t> integerArgumentBound(func::FuncOp func, unsigned index) {
  std::optional<int64_t> bound;
  auto tighten = [&](int64_t size) {
    bound = bound ? std::min(*bound, size) : size;
  };
  for (OpOperand &use : func.getArgument(index).getUses()) {
    Operation *user = use.getOwner();
    if (auto loss = dyn_cast<SoftmaxCrossEntropyOp>(user)) {
      if (use.getOperandNumber() == 1)
        tighten(*loss.getLogits().getType().getDimSize(loss.getDim()));
    } else if (auto gather = dyn_cast<GatherOp>(user)) {
      if (use.getOperandNumber() == 1)
        tighten(*gather.getTable().getType().getDimSize(gather.getDim()));
    } else if (auto oneHot = dyn_cast<OneHotOp>(user)) {
      tighten(*oneHot.getType().getDimSize(oneHot.getDim()));
    }
  }
  return bound;
}
} // namespace tessel::eval

/// Replaces every "{rank}" in `pattern` by `rank`.
static std::string pathForRank(std::string pattern, int64_t rank) {
  const std::string placeholder = "{rank}";
  for (size_t at = pattern.find(placeholder); at != std::string::npos;
       at = pattern.find(placeholder, at))
    pattern.replace(at, placeholder.size(), std::to_string(rank));
  return pattern;
}

namespace tessel::eval {
FailureOr<std::vector<PerRank>>
buildInputs(func::FuncOp func, const std::map<std::string, std::string> &files,
            std::optional<uint64_t> randomSeed) {
  for (const auto &[name, path] : files) {
    bool known = false;
    for (unsigned index = 0; index < func.getNumArguments(); ++index)
      known |= argumentName(func, index) == name;
    if (!known)
      return func.emitError() << "function '" << func.getSymName()
                              << "' has no input named '" << name << "'";
  }
  int64_t numRanks = meshOf(func).numRanks();
  std::vector<PerRank> inputs;
  for (unsigned index = 0; index < func.getNumArguments(); ++index) {
    std::string name = argumentName(func, index);
    auto type = dyn_cast<NamedTensorType>(func.getArgument(index).getType());
    if (!type)
      return func.emitError()
             << "argument '" << name << "' is not a tessel tensor";
    ref::TensorSpec spec = specOf(type);
    PerRank tensors;
    auto file = files.find(name);
    if (file != files.end()) {
      for (int64_t rank = 0; rank < numRanks; ++rank) {
        ref::Tensor tensor;
        std::string error;
        if (!ref::readNpyAs(pathForRank(file->second, rank), spec, tensor,
                            error))
          return func.emitError() << "input '" << name << "': " << error;
        tensors.push_back(std::move(tensor));
      }
    } else if (randomSeed) {
      std::optional<int64_t> bound = integerArgumentBound(func, index);
      ref::Tensor tensor(spec);
      uint64_t seed = *randomSeed * 1000003 + index;
      for (int64_t i = 0; i < spec.numElements(); ++i) {
        double u = ref::unitUniform(seed, static_cast<uint64_t>(i));
        double value =
            ref::isFloatType(spec.type)
                ? 2 * u - 1
                : std::floor(u * static_cast<double>(bound.value_or(100)));
        tensor.data[i] = ref::roundToType(value, spec.type);
      }
      tensors.assign(numRanks, tensor);
    } else {
      return func.emitError()
             << "no value for input '" << name << "': pass --input " << name
             << "=FILE.npy or --random-inputs";
    }
    inputs.push_back(std::move(tensors));
  }
  return inputs;
}
} // namespace tessel::eval
