//===- Convert.cpp - PyTorch weights into tessel checkpoints and back -----===//

#include "weights/Convert.h"

#include "reference/Shape.h"
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

/// One map entry with what its parameter gives it: torch's axes for it,
/// the parameter's dims in torch's order, and the sizes of torch's axes
/// (for a part of a tensor, of its part of them) and, for a part, where it
/// starts along the split axis.
struct Planned {
  const MapEntry *entry;
  ref::TensorSpec spec;
  std::vector<std::vector<std::string>> axes;
  ref::TensorSpec flat;
  std::vector<int64_t> axisSizes;
  int64_t offset = 0;
};

/// Plans `entry` for a parameter of `spec`.
bool plan(const MapEntry &entry, const ref::TensorSpec &spec, Planned &planned,
          std::string &error) {
  planned.entry = &entry;
  planned.spec = spec;
  if (!axesOf(entry, spec, planned.axes, error))
    return false;
  torchOrder(planned.axes, spec, planned.flat, planned.axisSizes);
  return true;
}

/// The shape of the whole torch tensor that `parts` (the consecutive plans
/// of one tensor) make up, setting each part's offset; false when they do
/// not fit together.
bool wholeShape(std::vector<Planned *> &parts, std::vector<int64_t> &shape,
                std::string &error) {
  const MapEntry &first = *parts.front()->entry;
  shape = parts.front()->axisSizes;
  if (first.splitAxis < 0)
    return true;
  auto axis = static_cast<size_t>(first.splitAxis);
  int64_t offset = 0;
  for (Planned *part : parts) {
    std::vector<int64_t> others = part->axisSizes, firstOthers = shape;
    if (axis >= others.size()) {
      error = fmt::format("{}: '{}': split axis {} is not one of the {} axes "
                          "of its part {}",
                          part->entry->where, first.theirs, axis, others.size(),
                          describeAxes(part->axes, part->axisSizes));
      return false;
    }
    part->offset = offset;
    offset += others[axis];
    others[axis] = firstOthers[axis] = 0;
    if (others != firstOthers) {
      error = fmt::format(
          "{}: '{}': part {} does not match the first part "
          "{} but along axis {}",
          part->entry->where, first.theirs,
          describeAxes(part->axes, part->axisSizes),
          describeAxes(parts.front()->axes, parts.front()->axisSizes), axis);
      return false;
    }
  }
  shape[axis] = offset;
  return true;
}

/// The elements of a row-major tensor of `shape` whose index along `axis`
/// lies in [offset, offset + size), or (`insert`) the other way: `part`
/// written there.
void copyAlong(std::vector<double> &whole, const std::vector<int64_t> &shape,
               size_t axis, int64_t offset, int64_t size,
               std::vector<double> &part, bool insert) {
  int64_t outer = 1, inner = 1;
  for (size_t i = 0; i < axis; ++i)
    outer *= shape[i];
  for (size_t i = axis + 1; i < shape.size(); ++i)
    inner *= shape[i];
  if (!insert)
    part.resize(static_cast<size_t>(outer * size * inner));
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < size; ++j)
      for (int64_t i = 0; i < inner; ++i) {
        double &at = whole[(o * shape[axis] + offset + j) * inner + i];
        double &mine = part[(o * size + j) * inner + i];
        if (insert)
          at = mine;
        else
          mine = at;
      }
}

/// The plans grouped by PyTorch tensor, in the map's order.
std::vector<std::vector<Planned *>> byTensor(std::vector<Planned> &plans) {
  std::vector<std::vector<Planned *>> groups;
  for (Planned &planned : plans) {
    if (groups.empty() ||
        groups.back().front()->entry->theirs != planned.entry->theirs)
      groups.emplace_back();
    groups.back().push_back(&planned);
  }
  return groups;
}

} // namespace

std::optional<Values> importWeights(const WeightMap &map,
                                    const std::string &path,
                                    const std::vector<Parameter> &parameters,
                                    const std::set<std::string> &keepInitial,
                                    std::string &error) {
  // A regular file only: opening a FIFO would wait for a writer forever.
  std::error_code notRegular;
  if (fs::exists(path, notRegular) && !fs::is_regular_file(path, notRegular)) {
    error = fmt::format("{}: cannot read it: it is not a regular file", path);
    return std::nullopt;
  }
  std::ifstream stream(path, std::ios::binary);
  std::error_code sizeError;
  uint64_t fileSize = fs::file_size(path, sizeError);
  if (!stream || sizeError) {
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
  std::vector<Planned> plans;
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
    plans.emplace_back();
    if (!plan(entry, parameter->spec, plans.back(), error))
      return std::nullopt;
  }

  Values values;
  for (std::vector<Planned *> &parts : byTensor(plans)) {
    const MapEntry &first = *parts.front()->entry;
    std::vector<int64_t> shape;
    if (!wholeShape(parts, shape, error))
      return std::nullopt;
    safetensors::TensorEntry tensor;
    std::vector<unsigned char> bytes;
    std::vector<double> data;
    if (!reader.entry(first.theirs, tensor, why) ||
        !reader.checkExtent(tensor, why) || !reader.read(tensor, bytes, why)) {
      error = fmt::format("{}: {}", path, why);
      return std::nullopt;
    }
    if (tensor.shape != shape) {
      if (first.splitAxis < 0) {
        error = fmt::format(
            "{}: '{}' has shape [{}] in {}, but the map gives "
            "its axes as {} of parameter '{}'",
            first.where, first.theirs, fmt::join(tensor.shape, ", "), path,
            describeAxes(parts.front()->axes, shape), first.ours);
      } else {
        std::vector<std::string> sizes;
        for (Planned *part : parts)
          sizes.push_back(fmt::format(
              "{} ({})", part->axisSizes[first.splitAxis], part->entry->ours));
        error = fmt::format(
            "{}: '{}' has shape [{}] in {}, but its parts "
            "make [{}] (axis {}: {})",
            first.where, first.theirs, fmt::join(tensor.shape, ", "), path,
            fmt::join(shape, ", "), first.splitAxis, fmt::join(sizes, " + "));
      }
      return std::nullopt;
    }
    if (!safetensors::decode(tensor.dtype, bytes, data)) {
      error = fmt::format("{}: tensor '{}' is {}, which tessel cannot convert",
                          path, first.theirs, tensor.dtype);
      return std::nullopt;
    }
    for (Planned *part : parts) {
      std::vector<double> mine;
      if (first.splitAxis < 0)
        mine = data;
      else
        copyAlong(data, shape, first.splitAxis, part->offset,
                  part->axisSizes[first.splitAxis], mine, /*insert=*/false);
      ref::Tensor torch(part->flat, std::move(mine));
      ref::Tensor ours = ref::transpose(
          torch, {part->spec.dims, part->spec.shape, ref::ElementType::F64});
      values[part->entry->ours] = ref::Tensor(part->spec, std::move(ours.data));
    }
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
  std::vector<Planned> plans;
  std::vector<std::vector<double>> data;
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
    data.emplace_back();
    plans.emplace_back();
    if (!file.read(entry.ours, spec, bytes, error) ||
        !plan(entry, spec, plans.back(), error))
      return false;
    safetensors::decode(safetensors::dtypeOf(spec.type), bytes, data.back());
  }
  // Each exported tensor's bytes, kept until the file is written.
  std::vector<std::vector<unsigned char>> storage;
  std::vector<safetensors::TensorData> tensors;
  std::vector<std::vector<Planned *>> groups = byTensor(plans);
  storage.reserve(groups.size());
  for (std::vector<Planned *> &parts : groups) {
    const MapEntry &first = *parts.front()->entry;
    std::vector<int64_t> shape;
    if (!wholeShape(parts, shape, error))
      return false;
    std::string dtype = safetensors::dtypeOf(parts.front()->spec.type);
    int64_t elements = 1;
    for (int64_t size : shape)
      elements *= size;
    std::vector<double> whole(static_cast<size_t>(elements));
    for (Planned *part : parts) {
      if (safetensors::dtypeOf(part->spec.type) != dtype) {
        error = fmt::format("{}: '{}': parameter '{}' is {}, but '{}' is {}: "
                            "the parts of a tensor share its dtype",
                            part->entry->where, first.theirs, part->entry->ours,
                            safetensors::dtypeOf(part->spec.type), first.ours,
                            dtype);
        return false;
      }
      ref::Tensor ours(
          {part->spec.dims, part->spec.shape, ref::ElementType::F64},
          std::move(data[static_cast<size_t>(part - plans.data())]));
      ref::Tensor torch = ref::transpose(ours, part->flat);
      if (first.splitAxis < 0)
        whole = std::move(torch.data);
      else
        copyAlong(whole, shape, first.splitAxis, part->offset,
                  part->axisSizes[first.splitAxis], torch.data,
                  /*insert=*/true);
    }
    storage.emplace_back();
    safetensors::encode(dtype, whole, storage.back());
    tensors.push_back({first.theirs, dtype, shape, storage.back().data(),
                       storage.back().size()});
  }
  // What safetensors.torch.save_file writes; its loader ignores the rest.
  return safetensors::write(output, tensors, {{"format", "pt"}}, error);
}

} // namespace tessel::weights
