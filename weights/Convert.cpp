//===- Convert.cpp - PyTorch weights into tessel checkpoints and back -----===//

#include "weights/Convert.h"

#include "evaluator/kernels/Shape.h"
#include "safetensors/CheckpointFile.h"
#include "safetensors/Safetensors.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace tessel::weights {

namespace fs = std::filesystem;

namespace {

/// Torch's axes for `entry` and a parameter of `spec`: the map's, or the
/// parameter's own dims one per axis. Checks that they hold every dim of
/// the parameter once.
bool axesOf(const MapEntry &entry, const ref::TensorSpec &spec,
            std::vector<std::vector<std::string>> &axes, std::string &error) {
  axes = entry.axes;
  if (!entry.hasDims)
    for (const std::string &dim : spec.dims)
      axes.push_back({dim});
  std::vector<std::string> flat;
  for (const auto &axis : axes)
    flat.insert(flat.end(), axis.begin(), axis.end());
  std::vector<std::string> sortedFlat = flat, sortedOurs = spec.dims;
  std::sort(sortedFlat.begin(), sortedFlat.end());
  std::sort(sortedOurs.begin(), sortedOurs.end());
  if (sortedFlat != sortedOurs) {
    error = fmt::format("{}: '{}': dims [{}] are not the dims of parameter "
                        "'{}', {}, each once",
                        entry.where, entry.theirs, fmt::join(flat, ", "),
                        entry.ours, safetensors::describe(spec));
    return false;
  }
  return true;
}

/// The parameter's dims in torch's order (the axes flattened) with their
/// sizes, and the size of each torch axis.
void torchOrder(const std::vector<std::vector<std::string>> &axes,
                const ref::TensorSpec &spec, ref::TensorSpec &flat,
                std::vector<int64_t> &axisSizes) {
  flat = {{}, {}, ref::ElementType::F64};
  axisSizes.clear();
  for (const auto &axis : axes) {
    int64_t size = 1;
    for (const std::string &dim : axis) {
      int64_t dimSize =
          spec.shape[std::find(spec.dims.begin(), spec.dims.end(), dim) -
                     spec.dims.begin()];
      flat.dims.push_back(dim);
      flat.shape.push_back(dimSize);
      size *= dimSize;
    }
    axisSizes.push_back(size);
  }
}

std::string describeAxes(const std::vector<std::vector<std::string>> &axes,
                         const std::vector<int64_t> &sizes) {
  std::vector<std::string> parts;
  for (size_t i = 0; i < axes.size(); ++i)
    parts.push_back(fmt::format("{}{}{}:{}", axes[i].size() > 1 ? "(" : "",
                                fmt::join(axes[i], " x "),
                                axes[i].size() > 1 ? ")" : "", sizes[i]));
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

} // namespace

std::optional<Values> importWeights(const WeightMap &map,
                                    const std::string &path,
                                    const std::vector<Parameter> &parameters,
                                    const std::set<std::string> &keepInitial,
                                    std::string &error) {
  std::ifstream stream(path, std::ios::binary);
  std::error_code sizeError;
  uint64_t fileSize = fs::file_size(path, sizeError);
  if (!stream || sizeError || fs::is_directory(path)) {
    error = fmt::format("{}: cannot read it", path);
    return std::nullopt;
  }
  safetensors::Reader reader;
  std::string why;
  if (!reader.open(stream, fileSize, why)) {
    error = fmt::format("{}: {}", path, why);
    return std::nullopt;
  }
  for (const std::string &name : reader.names())
    if (!map.findTheirs(name)) {
      error = fmt::format("{}: tensor '{}' is not in the name map {} (map it "
                          "to a parameter, or to null to leave it out)",
                          path, name, map.path);
      return std::nullopt;
    }
  Values values;
  for (const MapEntry &entry : map.entries) {
    if (!reader.has(entry.theirs)) {
      error = fmt::format("{}: '{}' is not a tensor of {}", entry.where,
                          entry.theirs, path);
      return std::nullopt;
    }
    if (entry.ours.empty())
      continue;
    auto parameter =
        std::find_if(parameters.begin(), parameters.end(),
                     [&](const Parameter &p) { return p.name == entry.ours; });
    if (parameter == parameters.end()) {
      std::vector<std::string> names;
      for (const Parameter &p : parameters)
        names.push_back(p.name);
      error = fmt::format("{}: '{}': the model has no parameter '{}' (it has "
                          "{})",
                          entry.where, entry.theirs, entry.ours,
                          fmt::join(names, ", "));
      return std::nullopt;
    }
    if (keepInitial.count(entry.ours)) {
      error = fmt::format("{}: '{}': parameter '{}' is mapped, but "
                          "--initialize keeps its initializer",
                          entry.where, entry.theirs, entry.ours);
      return std::nullopt;
    }
    const ref::TensorSpec &spec = parameter->spec;
    std::vector<std::vector<std::string>> axes;
    if (!axesOf(entry, spec, axes, error))
      return std::nullopt;
    ref::TensorSpec flat;
    std::vector<int64_t> axisSizes;
    torchOrder(axes, spec, flat, axisSizes);

    safetensors::TensorEntry tensor;
    std::vector<unsigned char> bytes;
    std::vector<double> data;
    if (!reader.entry(entry.theirs, tensor, why) ||
        !reader.checkExtent(tensor, why) || !reader.read(tensor, bytes, why)) {
      error = fmt::format("{}: {}", path, why);
      return std::nullopt;
    }
    if (tensor.shape != axisSizes) {
      error =
          fmt::format("{}: '{}' has shape [{}] in {}, but the map gives "
                      "its axes as {} of parameter '{}'",
                      entry.where, entry.theirs, fmt::join(tensor.shape, ", "),
                      path, describeAxes(axes, axisSizes), entry.ours);
      return std::nullopt;
    }
    if (!safetensors::decode(tensor.dtype, bytes, data)) {
      error = fmt::format("{}: tensor '{}' is {}, which tessel cannot convert",
                          path, entry.theirs, tensor.dtype);
      return std::nullopt;
    }
    ref::Tensor torch(flat, std::move(data));
    ref::Tensor ours =
        ref::transpose(torch, {spec.dims, spec.shape, ref::ElementType::F64});
    values[entry.ours] = ref::Tensor(spec, std::move(ours.data));
  }
  std::vector<std::string> unmapped;
  for (const Parameter &parameter : parameters)
    if (!values.count(parameter.name) && !keepInitial.count(parameter.name))
      unmapped.push_back(fmt::format("'{}' {}", parameter.name,
                                     safetensors::describe(parameter.spec)));
  if (!unmapped.empty()) {
    error = fmt::format("{}: no tensor is mapped to parameter{} {} (map one, "
                        "or pass --initialize NAME to keep its initializer)",
                        map.path, unmapped.size() > 1 ? "s" : "",
                        fmt::join(unmapped, ", "));
    return std::nullopt;
  }
  return values;
}

bool exportWeights(const WeightMap &map, const std::string &checkpoint,
                   const std::string &output, std::string &error) {
  safetensors::CheckpointFile file;
  if (!file.open(checkpoint, error))
    return false;
  // Each exported tensor's bytes, kept until the file is written.
  std::vector<std::vector<unsigned char>> storage;
  std::vector<safetensors::TensorData> tensors;
  storage.reserve(map.entries.size());
  for (const MapEntry &entry : map.entries) {
    if (entry.ours.empty())
      continue;
    if (!file.has(entry.ours)) {
      error = fmt::format("{}: '{}': checkpoint {} has no tensor '{}'",
                          entry.where, entry.theirs, checkpoint, entry.ours);
      return false;
    }
    ref::TensorSpec spec;
    std::vector<unsigned char> bytes;
    std::vector<double> data;
    if (!file.read(entry.ours, spec, bytes, error))
      return false;
    std::string dtype = safetensors::dtypeOf(spec.type);
    safetensors::decode(dtype, bytes, data);
    std::vector<std::vector<std::string>> axes;
    if (!axesOf(entry, spec, axes, error))
      return false;
    ref::TensorSpec flat;
    std::vector<int64_t> axisSizes;
    torchOrder(axes, spec, flat, axisSizes);
    ref::Tensor ours({spec.dims, spec.shape, ref::ElementType::F64},
                     std::move(data));
    ref::Tensor torch = ref::transpose(ours, flat);
    storage.emplace_back();
    safetensors::encode(dtype, torch.data, storage.back());
    tensors.push_back({entry.theirs, dtype, axisSizes, storage.back().data(),
                       storage.back().size()});
  }
  // What safetensors.torch.save_file writes; its loader ignores the rest.
  return safetensors::write(output, tensors, {{"format", "pt"}}, error);
}

} // namespace tessel::weights
