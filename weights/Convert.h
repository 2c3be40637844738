//===- Convert.h - PyTorch weights into tessel checkpoints and back -*- C++
//-*-//
//
// Import reads a PyTorch / Hugging Face safetensors file and, through a name
// map (WeightMap.h), gives each tessel parameter its value: the torch axes
// permuted (and unflattened) into the parameter's dims, the dtype converted
// to the parameter's element type. Export reads a tessel checkpoint and
// writes the mapped parameters under their PyTorch names with torch's axis
// order, for `model.load_state_dict(safetensors.torch.load_file(...))`.
// Both go through the one safetensors reader and writer
// (runtime/safetensors). Plain C++ without MLIR: `tessel import-weights`
// adds what only the model knows (the parameters, the optimizer's state).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_WEIGHTS_CONVERT_H
#define TESSEL_WEIGHTS_CONVERT_H

#include "reference/Tensor.h"
#include "weights/WeightMap.h"

#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace tessel::weights {

/// A tessel parameter: its name and global type.
struct Parameter {
  std::string name;
  ref::TensorSpec spec;
};

/// Values of parameters by name, global, in each parameter's dim order.
using Values = std::map<std::string, ref::Tensor>;

/// Reads the tensors of the safetensors file `path` into the parameters'
/// values. Every tensor of the file must be in the map (mapped to null to
/// leave it out), every entry's tensor in the file, every entry's parameter
/// among `parameters` with matching dims and sizes, and every parameter
/// mapped unless `keepInitial` names it. Errors name the map's file and
/// line, or the file and the tensor.
std::optional<Values> importWeights(const WeightMap &map,
                                    const std::string &path,
                                    const std::vector<Parameter> &parameters,
                                    const std::set<std::string> &keepInitial,
                                    std::string &error);

/// Writes the mapped parameters of the tessel checkpoint `checkpoint` (a
/// file) to `output` as a PyTorch safetensors file: each under its PyTorch
/// name, with torch's axes, in the checkpoint's dtype. Tensors of the
/// checkpoint the map does not name (optimizer state) are left out; a
/// parameter the map names that the checkpoint lacks is an error.
bool exportWeights(const WeightMap &map, const std::string &checkpoint,
                   const std::string &output, std::string &error);

} // namespace tessel::weights

#endif // TESSEL_WEIGHTS_CONVERT_H
