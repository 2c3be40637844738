//===- LayoutFile.cpp - the user's layout: a mesh and its rules -----------===//

#include "layouts/LayoutFile.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <sstream>

using namespace tessel::layout;

namespace {

const char *const kCommandLine = "<command line>";

std::string_view trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\n");
  if (begin == std::string_view::npos)
    return {};
  size_t end = text.find_last_not_of(" \t\n");
  return text.substr(begin, end - begin + 1);
}

/// Splits `text` at `separator`, trimming the pieces and dropping empty
/// ones (so that a trailing ';' is harmless).
std::vector<std::string_view> splitTrimmed(std::string_view text,
                                           char separator) {
  std::vector<std::string_view> pieces;
  while (!text.empty()) {
    size_t at = text.find(separator);
    std::string_view piece = trim(text.substr(0, at));
    if (!piece.empty())
      pieces.push_back(piece);
    if (at == std::string_view::npos)
      break;
    text.remove_prefix(at + 1);
  }
  return pieces;
}

/// Reads one layout, collecting diagnostics as it goes so that a user sees
/// every mistake of a file at once.
class LayoutReader {
public:
  LayoutReader(std::string source, std::vector<Diagnostic> &diagnostics)
      : source(std::move(source)), diagnostics(diagnostics) {}

  std::optional<LayoutSpec> readYaml(const YAML::Node &root);
  std::optional<LayoutSpec> readStrings(std::string_view mesh,
                                        std::string_view rules);

private:
  SourceLocation at(const YAML::Node &node) const {
    const YAML::Mark mark = node.Mark();
    if (mark.line < 0)
      return {source, 0, 0};
    return {source, mark.line + 1, mark.column + 1};
  }
  void error(SourceLocation location, std::string message) {
    diagnostics.push_back(
        {Diagnostic::Error, std::move(location), std::move(message)});
    ++errors;
  }

  /// Reports every key of `map` that appears twice; yaml-cpp keeps both.
  void checkDuplicateKeys(const YAML::Node &map, const std::string &where);
  bool readMesh(const YAML::Node &node, LayoutSpec &spec);
  bool readMeshString(std::string_view text, SourceLocation location,
                      LayoutSpec &spec);
  void readRules(const YAML::Node &node, std::vector<DimRule> &rules);
  void readRulesString(std::string_view text, SourceLocation location,
                       std::vector<DimRule> &rules);
  void readOverrides(const YAML::Node &node, LayoutSpec &spec);
  /// Checks every rule's axes against the mesh.
  void checkRules(const LayoutSpec &spec, const std::vector<DimRule> &rules,
                  const std::string &owner);

  std::string source;
  std::vector<Diagnostic> &diagnostics;
  int errors = 0;
};

void LayoutReader::checkDuplicateKeys(const YAML::Node &map,
                                      const std::string &where) {
  std::set<std::string> seen;
  for (auto it = map.begin(); it != map.end(); ++it)
    if (it->first.IsScalar() && !seen.insert(it->first.Scalar()).second)
      error(at(it->first),
            "duplicate key '" + it->first.Scalar() + "' in " + where);
}

bool LayoutReader::readMeshString(std::string_view text,
                                  SourceLocation location, LayoutSpec &spec) {
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  for (std::string_view segment : splitTrimmed(text, ';')) {
    size_t colon = segment.find(':');
    std::string name(trim(segment.substr(0, colon)));
    std::string size = colon == std::string_view::npos
                           ? ""
                           : std::string(trim(segment.substr(colon + 1)));
    char *end = nullptr;
    long long value = size.empty() ? 0 : std::strtoll(size.c_str(), &end, 10);
    if (name.empty() || size.empty() || *end != '\0') {
      error(location, "malformed mesh axis '" + std::string(segment) +
                          "' (expected name:size)");
      return false;
    }
    names.push_back(name);
    sizes.push_back(value);
    spec.axisLocations.push_back(location);
  }
  std::string message;
  if (names.empty()) {
    error(location, "the mesh has no axes");
    return false;
  }
  if (!validateMesh(names, sizes, message)) {
    error(location, message);
    return false;
  }
  spec.mesh = Mesh(names, sizes);
  return true;
}

bool LayoutReader::readMesh(const YAML::Node &node, LayoutSpec &spec) {
  if (node.IsScalar())
    return readMeshString(node.Scalar(), at(node), spec);
  if (!node.IsMap()) {
    error(at(node), "'mesh' must map axis names to sizes, e.g. "
                    "{data: 2, model: 4}");
    return false;
  }
  checkDuplicateKeys(node, "mesh");
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  bool valid = true;
  for (auto it = node.begin(); it != node.end(); ++it) {
    std::string name = it->first.Scalar();
    long long size = 0;
    std::string text = it->second.IsScalar() ? it->second.Scalar() : "";
    char *end = nullptr;
    if (!text.empty())
      size = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0') {
      error(at(it->second), "mesh axis '" + name + "' has size '" + text +
                                "'; sizes must be integers");
      valid = false;
      continue;
    }
    if (size < 1) {
      error(at(it->second), "mesh axis '" + name + "' has size " +
                                std::to_string(size) + "; sizes must be >= 1");
      valid = false;
      continue;
    }
    names.push_back(name);
    sizes.push_back(size);
    spec.axisLocations.push_back(at(it->first));
  }
  if (!valid)
    return false;
  if (names.empty()) {
    error(at(node), "the mesh has no axes");
    return false;
  }
  std::string message;
  if (!validateMesh(names, sizes, message)) {
    error(at(node), message);
    return false;
  }
  spec.mesh = Mesh(names, sizes);
  return true;
}

void LayoutReader::readRulesString(std::string_view text,
                                   SourceLocation location,
                                   std::vector<DimRule> &rules) {
  for (std::string_view segment : splitTrimmed(text, ';')) {
    size_t colon = segment.find(':');
    std::string dim(trim(segment.substr(0, colon)));
    if (dim.empty() || colon == std::string_view::npos) {
      error(location, "malformed rule '" + std::string(segment) +
                          "' (expected dim:axis or dim:axis,axis)");
      continue;
    }
    DimRule rule{dim, {}, location};
    for (std::string_view axis : splitTrimmed(segment.substr(colon + 1), ','))
      rule.axes.emplace_back(axis);
    rules.push_back(rule);
  }
}

void LayoutReader::readRules(const YAML::Node &node,
                             std::vector<DimRule> &rules) {
  if (node.IsScalar())
    return readRulesString(node.Scalar(), at(node), rules);
  if (!node.IsMap()) {
    error(at(node), "rules must map dimension names to mesh axes, e.g. "
                    "{batch: data}");
    return;
  }
  checkDuplicateKeys(node, "the rules");
  for (auto it = node.begin(); it != node.end(); ++it) {
    DimRule rule{it->first.Scalar(), {}, at(it->first)};
    const YAML::Node &value = it->second;
    if (value.IsScalar()) {
      rule.axes.push_back(value.Scalar());
    } else if (value.IsSequence()) {
      for (const YAML::Node &axis : value) {
        if (!axis.IsScalar()) {
          error(at(axis),
                "axes of dimension '" + rule.dim + "' must be mesh axis names");
          continue;
        }
        rule.axes.push_back(axis.Scalar());
      }
    } else if (!value.IsNull()) {
      error(at(value), "dimension '" + rule.dim +
                           "' must map to a mesh axis or a list of them");
      continue;
    }
    rules.push_back(rule);
  }
}

void LayoutReader::readOverrides(const YAML::Node &node, LayoutSpec &spec) {
  if (!node.IsMap()) {
    error(at(node), "'overrides' must map tensor names to rules, e.g. "
                    "{logits: {vocab: model}}");
    return;
  }
  checkDuplicateKeys(node, "overrides");
  for (auto it = node.begin(); it != node.end(); ++it) {
    TensorOverride override{it->first.Scalar(), {}, at(it->first)};
    readRules(it->second, override.rules);
    spec.overrides.push_back(override);
  }
}

void LayoutReader::checkRules(const LayoutSpec &spec,
                              const std::vector<DimRule> &rules,
                              const std::string &owner) {
  std::set<std::string> dims;
  for (const DimRule &rule : rules) {
    if (!dims.insert(rule.dim).second)
      error(rule.location,
            "dimension '" + rule.dim + "' has two rules" + owner);
    std::set<std::string> axes;
    for (const std::string &axis : rule.axes) {
      if (!spec.mesh.axisIndex(axis))
        error(rule.location, "dimension '" + rule.dim + "'" + owner +
                                 " is split over '" + axis +
                                 "', which is not an axis of the mesh " +
                                 formatMesh(spec.mesh));
      else if (!axes.insert(axis).second)
        error(rule.location, "dimension '" + rule.dim + "'" + owner +
                                 " uses mesh axis '" + axis + "' twice");
    }
  }
}

std::optional<LayoutSpec> LayoutReader::readYaml(const YAML::Node &root) {
  LayoutSpec spec;
  spec.source = source;
  if (!root.IsMap()) {
    error(at(root), "a layout file must be a map with 'mesh' and 'layout'");
    return std::nullopt;
  }
  checkDuplicateKeys(root, "the layout file");
  for (auto it = root.begin(); it != root.end(); ++it) {
    const std::string &key = it->first.Scalar();
    if (key != "mesh" && key != "layout" && key != "overrides")
      error(at(it->first),
            "unknown key '" + key + "' (expected mesh, layout or overrides)");
  }
  if (!root["mesh"]) {
    error(at(root), "the layout file has no 'mesh'");
    return std::nullopt;
  }
  if (!readMesh(root["mesh"], spec))
    return std::nullopt;
  if (root["layout"])
    readRules(root["layout"], spec.rules);
  if (root["overrides"])
    readOverrides(root["overrides"], spec);
  checkRules(spec, spec.rules, "");
  std::set<std::string> tensors;
  for (const TensorOverride &override : spec.overrides) {
    if (!tensors.insert(override.tensor).second)
      error(override.location,
            "tensor '" + override.tensor + "' is overridden twice");
    checkRules(spec, override.rules, " of tensor '" + override.tensor + "'");
  }
  if (errors)
    return std::nullopt;
  return spec;
}

std::optional<LayoutSpec> LayoutReader::readStrings(std::string_view mesh,
                                                    std::string_view rules) {
  LayoutSpec spec;
  spec.source = source;
  SourceLocation location{source, 0, 0};
  if (!readMeshString(mesh, location, spec))
    return std::nullopt;
  readRulesString(rules, location, spec.rules);
  checkRules(spec, spec.rules, "");
  if (errors)
    return std::nullopt;
  return spec;
}

} // namespace

std::string Diagnostic::str() const {
  std::string text = location.file;
  if (location.line > 0)
    text += ":" + std::to_string(location.line) + ":" +
            std::to_string(std::max(location.column, 1));
  text += severity == Error ? ": error: " : ": warning: ";
  return text + message;
}

const DimRule *LayoutSpec::ruleFor(std::string_view tensor,
                                   std::string_view dim) const {
  if (!tensor.empty())
    for (const TensorOverride &override : overrides)
      if (override.tensor == tensor)
        for (const DimRule &rule : override.rules)
          if (rule.dim == dim)
            return &rule;
  for (const DimRule &rule : rules)
    if (rule.dim == dim)
      return &rule;
  return nullptr;
}

AxisList LayoutSpec::axesFor(std::string_view tensor,
                             std::string_view dim) const {
  const DimRule *rule = ruleFor(tensor, dim);
  return rule ? rule->axes : AxisList();
}

std::optional<LayoutSpec>
tessel::layout::parseLayoutText(std::string_view yamlText,
                                const std::string &sourceName,
                                std::vector<Diagnostic> &diagnostics) {
  LayoutReader reader(sourceName, diagnostics);
  // yaml-cpp reports malformed input by throwing; nothing escapes from here.
  try {
    YAML::Node root = YAML::Load(std::string(yamlText));
    return reader.readYaml(root);
  } catch (const YAML::Exception &exception) {
    SourceLocation location{sourceName, 0, 0};
    if (exception.mark.line >= 0)
      location = {sourceName, exception.mark.line + 1,
                  exception.mark.column + 1};
    diagnostics.push_back(
        {Diagnostic::Error, location, "malformed YAML: " + exception.msg});
    return std::nullopt;
  }
}

std::optional<LayoutSpec>
tessel::layout::parseLayoutFile(const std::string &path,
                                std::vector<Diagnostic> &diagnostics) {
  std::ifstream in(path);
  if (!in) {
    diagnostics.push_back(
        {Diagnostic::Error, {path, 0, 0}, "cannot open layout file"});
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  return parseLayoutText(text.str(), path, diagnostics);
}

std::optional<LayoutSpec>
tessel::layout::parseLayoutStrings(std::string_view mesh,
                                   std::string_view rules,
                                   std::vector<Diagnostic> &diagnostics) {
  return LayoutReader(kCommandLine, diagnostics).readStrings(mesh, rules);
}

std::string tessel::layout::formatMesh(const Mesh &mesh) {
  std::string text;
  for (unsigned i = 0; i < mesh.numAxes(); ++i)
    text += (i ? ";" : "") + mesh.axisNames()[i] + ":" +
            std::to_string(mesh.axisSizes()[i]);
  return text;
}

std::string tessel::layout::formatRules(const std::vector<DimRule> &rules) {
  std::string text;
  for (const DimRule &rule : rules) {
    if (!text.empty())
      text += ";";
    text += rule.dim + ":";
    for (size_t i = 0; i < rule.axes.size(); ++i)
      text += (i ? "," : "") + rule.axes[i];
  }
  return text;
}
