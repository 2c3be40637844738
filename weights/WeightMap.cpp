//===- WeightMap.cpp - Names of weights in PyTorch and in tessel ----------===//

#include "weights/WeightMap.h"

#include "layouts/InputFile.h"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <iterator>
#include <map>

namespace tessel::weights {

const MapEntry *WeightMap::findTheirs(const std::string &name) const {
  for (const MapEntry &entry : entries)
    if (entry.theirs == name)
      return &entry;
  return nullptr;
}

const MapEntry *WeightMap::findOurs(const std::string &name) const {
  for (const MapEntry &entry : entries)
    if (!entry.ours.empty() && entry.ours == name)
      return &entry;
  return nullptr;
}

namespace {

std::string at(const std::string &path, const YAML::Node &node) {
  return path + ":" + std::to_string(node.Mark().line + 1);
}

/// A dim name: a plain scalar that is not empty.
bool dimName(const YAML::Node &node, std::string &name) {
  if (!node.IsScalar() || node.Scalar().empty())
    return false;
  name = node.Scalar();
  return true;
}

/// Reads one entry's value into `entry`; false with `error` otherwise.
bool readEntry(const std::string &path, const YAML::Node &value,
               MapEntry &entry, std::string &error) {
  const std::string where = at(path, value);
  if (value.IsNull())
    return true;
  if (value.IsScalar()) {
    entry.ours = value.Scalar();
    if (entry.ours.empty()) {
      error = where + ": '" + entry.theirs +
              "': an empty name (null, not \"\", leaves a tensor out)";
      return false;
    }
    return true;
  }
  if (!value.IsMap()) {
    error = where + ": '" + entry.theirs +
            "': expected null, a parameter name, {name: NAME, dims: [...]} "
            "or {split: AXIS, parts: [...]}";
    return false;
  }
  for (const auto &item : value) {
    std::string key = item.first.Scalar();
    if (key == "name") {
      if (!item.second.IsScalar() || item.second.Scalar().empty()) {
        error = at(path, item.second) + ": '" + entry.theirs +
                "': name must be a parameter name";
        return false;
      }
      entry.ours = item.second.Scalar();
    } else if (key == "dims") {
      entry.hasDims = true;
      if (!item.second.IsSequence()) {
        error = at(path, item.second) + ": '" + entry.theirs +
                "': dims must list torch's axes, e.g. [hidden, pixels]";
        return false;
      }
      for (const YAML::Node &axis : item.second) {
        std::vector<std::string> dims;
        std::string name;
        if (dimName(axis, name)) {
          dims.push_back(name);
        } else if (axis.IsSequence() && axis.size() > 0) {
          for (const YAML::Node &dim : axis) {
            if (!dimName(dim, name)) {
              error = at(path, dim) + ": '" + entry.theirs +
                      "': a flattened axis lists dim names";
              return false;
            }
            dims.push_back(name);
          }
        } else {
          error = at(path, axis) + ": '" + entry.theirs +
                  "': each axis is a dim name or a list of them";
          return false;
        }
        entry.axes.push_back(dims);
      }
    } else {
      error = at(path, item.first) + ": '" + entry.theirs + "': unknown key '" +
              key + "' (expected name and dims)";
      return false;
    }
  }
  if (entry.ours.empty()) {
    error = where + ": '" + entry.theirs + "': no name of a parameter";
    return false;
  }
  return true;
}

/// Reads `{split: AXIS, parts: [...]}` into one entry per part.
bool readParts(const std::string &path, const YAML::Node &value,
               const MapEntry &tensor, std::vector<MapEntry> &parts,
               std::string &error) {
  const std::string where = at(path, value);
  YAML::Node axis = value["split"], list = value["parts"];
  for (const auto &item : value)
    if (item.first.Scalar() != "split" && item.first.Scalar() != "parts") {
      error = at(path, item.first) + ": '" + tensor.theirs +
              "': unknown key '" + item.first.Scalar() +
              "' (expected split and parts)";
      return false;
    }
  int splitAxis = -1;
  if (!axis || !axis.IsScalar() ||
      !YAML::convert<int>::decode(axis, splitAxis) || splitAxis < 0) {
    error = where + ": '" + tensor.theirs +
            "': split must be the torch axis its parts are concatenated along";
    return false;
  }
  if (!list || !list.IsSequence() || list.size() == 0) {
    error = where + ": '" + tensor.theirs +
            "': parts must list the parameters, in their order along the axis";
    return false;
  }
  for (const YAML::Node &partNode : list) {
    MapEntry part = tensor;
    part.splitAxis = splitAxis;
    part.part = static_cast<int>(parts.size());
    part.where = at(path, partNode);
    if (partNode.IsNull() || (partNode.IsMap() && partNode["split"])) {
      error = part.where + ": '" + tensor.theirs +
              "': a part is a parameter name or {name: NAME, dims: [...]}";
      return false;
    }
    if (!readEntry(path, partNode, part, error))
      return false;
    parts.push_back(std::move(part));
  }
  return true;
}

} // namespace

std::optional<WeightMap> readWeightMap(const std::string &path,
                                       std::string &error) {
  if (std::optional<std::string> why = layout::notATextFile(path)) {
    error = path + ": " + *why;
    return std::nullopt;
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) {
    error = path + ": cannot read the name map";
    return std::nullopt;
  }
  std::string text((std::istreambuf_iterator<char>(file)),
                   std::istreambuf_iterator<char>());
  return parseWeightMap(text, path, error);
}

std::optional<WeightMap> parseWeightMap(const std::string &text,
                                        const std::string &path,
                                        std::string &error) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception &failure) {
    error =
        path + ":" + std::to_string(failure.mark.line + 1) + ": " + failure.msg;
    return std::nullopt;
  }
  if (!root.IsMap()) {
    error = path + ": a name map is a YAML mapping of PyTorch names to "
                   "tessel parameters";
    return std::nullopt;
  }
  WeightMap map;
  map.path = path;
  std::map<std::string, std::string> claimed, seen;
  try {
    for (const auto &item : root) {
      MapEntry entry;
      if (!item.first.IsScalar()) {
        error = at(path, item.first) + ": a PyTorch name must be a string";
        return std::nullopt;
      }
      entry.theirs = item.first.Scalar();
      entry.where = at(path, item.first);
      auto [first, fresh] = seen.emplace(entry.theirs, entry.where);
      if (!fresh) {
        error = entry.where + ": '" + entry.theirs +
                "' is mapped twice (also at " + first->second + ")";
        return std::nullopt;
      }
      std::vector<MapEntry> parts;
      if (item.second.IsMap() && item.second["split"]) {
        if (!readParts(path, item.second, entry, parts, error))
          return std::nullopt;
      } else {
        if (!readEntry(path, item.second, entry, error))
          return std::nullopt;
        parts.push_back(std::move(entry));
      }
      for (MapEntry &part : parts) {
        if (!part.ours.empty()) {
          auto [it, fresh] = claimed.emplace(part.ours, part.where);
          if (!fresh) {
            error = part.where + ": '" + part.theirs + "': parameter '" +
                    part.ours + "' is already mapped at " + it->second;
            return std::nullopt;
          }
        }
        map.entries.push_back(std::move(part));
      }
    }
  } catch (const YAML::Exception &failure) {
    error =
        path + ":" + std::to_string(failure.mark.line + 1) + ": " + failure.msg;
    return std::nullopt;
  }
  return map;
}

} // namespace tessel::weights
