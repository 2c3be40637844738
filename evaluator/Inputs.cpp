//===- Inputs.cpp - the arguments a function is evaluated on --------------===//

#include "evaluator/Inputs.h"

#include "dialect/IndexBounds.h"
#include "dialect/MeshConversion.h"
#include "evaluator/Blocks.h"
#include "reference/Initializers.h"
#include "reference/npy/NpyFile.h"

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
  // A partitioned function records the bound its global program implied.
  if (auto recorded =
          func.getArgAttrOfType<IntegerAttr>(index, kIndexBoundAttrName))
    return recorded.getInt();
  return getIndexBound(func.getArgument(index));
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
            std::optional<uint64_t> randomSeed, const ParameterValues &values) {
  for (const auto &[name, path] : files) {
    bool known = false;
    for (unsigned index = 0; index < func.getNumArguments(); ++index)
      known |= argumentName(func, index) == name;
    if (!known)
      return func.emitError() << "function '" << func.getSymName()
                              << "' has no input named '" << name << "'";
  }
  layout::Mesh mesh = meshOf(func);
  int64_t numRanks = mesh.numRanks();
  std::vector<PerRank> inputs;
  for (unsigned index = 0; index < func.getNumArguments(); ++index) {
    std::string name = argumentName(func, index);
    auto type = dyn_cast<NamedTensorType>(func.getArgument(index).getType());
    if (!type)
      return func.emitError()
             << "argument '" << name << "' is not a tessel tensor";
    // A partitioned function's argument is a block of a global tensor: a
    // file without "{rank}" and random data describe the global tensor.
    NamedTensorType globalType;
    if (auto global =
            func.getArgAttrOfType<TypeAttr>(index, kGlobalTypeAttrName))
      globalType = dyn_cast<NamedTensorType>(global.getValue());
    ref::TensorSpec spec = specOf(globalType ? globalType : type);
    PerRank tensors;
    auto file = files.find(name);
    bool perRankFiles =
        file != files.end() && file->second.find("{rank}") != std::string::npos;
    std::optional<ref::Tensor> whole;
    if (perRankFiles) {
      for (int64_t rank = 0; rank < numRanks; ++rank) {
        ref::Tensor tensor;
        std::string error;
        if (!ref::readNpyAs(pathForRank(file->second, rank), specOf(type),
                            tensor, error))
          return func.emitError() << "input '" << name << "': " << error;
        tensors.push_back(std::move(tensor));
      }
    } else if (file != files.end()) {
      whole.emplace();
      std::string error;
      if (!ref::readNpyAs(file->second, spec, *whole, error))
        return func.emitError() << "input '" << name << "': " << error;
    } else if (auto value = values.find(name); value != values.end()) {
      if (value->second.spec.dims != spec.dims ||
          value->second.spec.shape != spec.shape)
        return func.emitError()
               << "input '" << name << "': the value given has dims and "
               << "shape other than the argument's";
      whole.emplace(spec, value->second.data);
    } else if (randomSeed) {
      std::optional<int64_t> bound = integerArgumentBound(func, index);
      // Optimizer state such as Adam's second moment is never negative.
      bool nonNegative = func.getArgAttr(index, kNonNegativeAttrName) != nullptr;
      whole.emplace(spec);
      uint64_t seed = *randomSeed * 1000003 + index;
      for (int64_t i = 0; i < spec.numElements(); ++i) {
        double u = ref::unitUniform(seed, static_cast<uint64_t>(i));
        double value =
            ref::isFloatType(spec.type)
                ? (nonNegative ? u : 2 * u - 1)
                : std::floor(u * static_cast<double>(bound.value_or(100)));
        whole->data[i] = ref::roundToType(value, spec.type);
      }
    } else {
      return func.emitError()
             << "no value for input '" << name << "': pass --input " << name
             << "=FILE.npy or --random-inputs";
    }
    if (whole) {
      for (int64_t rank = 0; rank < numRanks; ++rank)
        tensors.push_back(globalType ? blockOf(*whole, globalType, mesh, rank)
                                     : *whole);
    }
    inputs.push_back(std::move(tensors));
  }
  return inputs;
}
} // namespace tessel::eval
