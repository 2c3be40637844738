//===- LayoutFile.cpp - the user's layout: a mesh and its rules -----------===//

#include "layouts/LayoutFile.h"

#include "layouts/InputFile.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <memory>
#include <set>
#include <sstream>

using namespace tessel::layout;

namespace {

const char *const kCommandLine = "<command line>";

/// The most ranks a mesh may have. Shapes, offsets and byte counts are
/// products of mesh sizes and tensor sizes in int64_t, so the mesh is kept
/// far below the point where those products could overflow.
constexpr int64_t kMaxRanks = int64_t(1) << 31;

std::string_view trim(std::string_view text) {
  size_t begin = text.find_first_not_of(" \t\r\n");
  if (begin == std::string_view::npos)
    return {};
  size_t end = text.find_last_not_of(" \t\r\n");
  return text.substr(begin, end - begin + 1);
}

/// Splits `text` at every `separator` and trims the pieces; empty pieces are
/// kept so that callers can decide whether they are harmless.
std::vector<std::string_view> splitTrimmed(std::string_view text,
                                           char separator) {
  std::vector<std::string_view> pieces;
  while (true) {
    size_t at = text.find(separator);
    pieces.push_back(trim(text.substr(0, at)));
    if (at == std::string_view::npos)
      return pieces;
    text.remove_prefix(at + 1);
  }
}

/// Reads a mesh axis size written in decimal, with an optional sign. A value
/// beyond int64_t saturates, which the mesh size limit then rejects; only
/// text that is not an integer at all gives std::nullopt.
std::optional<int64_t> parseSize(std::string_view text) {
  bool negative = false;
  if (!text.empty() && (text.front() == '+' || text.front() == '-')) {
    negative = text.front() == '-';
    text.remove_prefix(1);
  }
  if (text.empty() || !std::all_of(text.begin(), text.end(),
                                   [](char c) { return c >= '0' && c <= '9'; }))
    return std::nullopt;
  int64_t value = 0;
  auto [end, status] =
      std::from_chars(text.data(), text.data() + text.size(), value);
  (void)end;
  if (status == std::errc::result_out_of_range)
    return negative ? std::numeric_limits<int64_t>::min()
                    : std::numeric_limits<int64_t>::max();
  return negative ? -value : value;
}

/// Reads one layout, collecting diagnostics as it goes so that a user sees
/// every mistake of a file at once rather than one per run.
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

  using KeyVisitor = std::function<void(
      const YAML::Node &key, const std::string &name, const YAML::Node &value)>;
  /// Calls `visit` for the first occurrence of every key of `map`. yaml-cpp
  /// silently keeps both entries of a key given twice, so every map of the
  /// file is read through here to report the second one; keys that are not
  /// plain names are reported too.
  void forEachKey(const YAML::Node &map, const std::string &where,
                  const KeyVisitor &visit);

  /// Each of these returns false when the mesh could not be built.
  bool readMesh(const YAML::Node &node, LayoutSpec &spec);
  void readPadUneven(const YAML::Node &node, LayoutSpec &spec);
  void readPipeline(const YAML::Node &node, LayoutSpec &spec);
  /// Checks the pipeline axis against the mesh and the rules: a dimension
  /// split over the stage axis would put one tensor on several stages.
  void checkPipeline(const std::optional<Mesh> &mesh, const LayoutSpec &spec);
  bool readMeshString(std::string_view text, SourceLocation location,
                      LayoutSpec &spec);
  bool buildMesh(std::vector<std::string> names, std::vector<int64_t> sizes,
                 SourceLocation location, LayoutSpec &spec);
  /// Checks a size that was written as an integer; reports at `location`.
  bool checkAxisSize(const std::string &name, std::string_view text,
                     int64_t size, SourceLocation location);

  /// `owner` is "" for the general rules, or " of tensor 'name'".
  void readRules(const YAML::Node &node, const std::string &owner,
                 std::vector<DimRule> &rules);
  void readRulesString(std::string_view text, SourceLocation location,
                       std::vector<DimRule> &rules);
  void readOverrides(const YAML::Node &node, LayoutSpec &spec);

  /// Checks every rule's axes: each must be an axis of the mesh (checked
  /// only when the mesh is known, so that a broken mesh does not make every
  /// rule an error as well) and appear once per rule.
  void checkRules(const std::optional<Mesh> &mesh,
                  const std::vector<DimRule> &rules, const std::string &owner);

  std::string source;
  std::vector<Diagnostic> &diagnostics;
  int errors = 0;
};

void LayoutReader::forEachKey(const YAML::Node &map, const std::string &where,
                              const KeyVisitor &visit) {
  std::set<std::string> seen;
  for (auto it = map.begin(); it != map.end(); ++it) {
    if (!it->first.IsScalar()) {
      error(at(it->first), "keys in " + where + " must be names");
      continue;
    }
    const std::string &name = it->first.Scalar();
    if (!seen.insert(name).second) {
      error(at(it->first), "duplicate key '" + name + "' in " + where);
      continue;
    }
    visit(it->first, name, it->second);
  }
}

bool LayoutReader::checkAxisSize(const std::string &name, std::string_view text,
                                 int64_t size, SourceLocation location) {
  if (size < 1) {
    error(std::move(location), "mesh axis '" + name + "' has size " +
                                   std::string(text) + "; sizes must be >= 1");
    return false;
  }
  if (size > kMaxRanks) {
    error(std::move(location), "mesh axis '" + name + "' has size " +
                                   std::string(text) +
                                   "; a mesh may have at most " +
                                   std::to_string(kMaxRanks) + " ranks");
    return false;
  }
  return true;
}

bool LayoutReader::buildMesh(std::vector<std::string> names,
                             std::vector<int64_t> sizes,
                             SourceLocation location, LayoutSpec &spec) {
  if (names.empty()) {
    error(location, "the mesh has no axes");
    return false;
  }
  std::string message;
  if (!validateMesh(names, sizes, message)) {
    error(location, message);
    return false;
  }
  // Every size is at most kMaxRanks, so the product cannot overflow before
  // it is caught.
  int64_t ranks = 1;
  for (int64_t size : sizes) {
    ranks *= size;
    if (ranks > kMaxRanks) {
      error(location, "the mesh " + formatMesh(Mesh(names, sizes)) +
                          " has more than " + std::to_string(kMaxRanks) +
                          " ranks");
      return false;
    }
  }
  spec.mesh = Mesh(std::move(names), std::move(sizes));
  return true;
}

bool LayoutReader::readMeshString(std::string_view text,
                                  SourceLocation location, LayoutSpec &spec) {
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  bool valid = true;
  for (std::string_view segment : splitTrimmed(text, ';')) {
    if (segment.empty())
      continue;
    size_t colon = segment.find(':');
    std::string name(trim(segment.substr(0, colon)));
    std::string_view sizeText = colon == std::string_view::npos
                                    ? std::string_view()
                                    : trim(segment.substr(colon + 1));
    std::optional<int64_t> size = parseSize(sizeText);
    if (name.empty() || !size) {
      error(location, "malformed mesh axis '" + std::string(segment) +
                          "' (expected name:size)");
      valid = false;
      continue;
    }
    if (!checkAxisSize(name, sizeText, *size, location)) {
      valid = false;
      continue;
    }
    names.push_back(name);
    sizes.push_back(*size);
    spec.axisLocations.push_back(location);
  }
  if (!valid)
    return false;
  return buildMesh(std::move(names), std::move(sizes), location, spec);
}

void LayoutReader::readPadUneven(const YAML::Node &node, LayoutSpec &spec) {
  std::string text = node.IsScalar() ? node.Scalar() : "";
  if (text == "true" || text == "false")
    spec.padUneven = text == "true";
  else
    error(at(node), "'pad_uneven' must be true or false");
}

void LayoutReader::readPipeline(const YAML::Node &node, LayoutSpec &spec) {
  PipelineSpec pipeline;
  pipeline.location = at(node);
  if (!node.IsMap()) {
    error(at(node), "'pipeline' must be a map, e.g. {axis: stage, "
                    "microbatches: 4, schedule: 1f1b}");
    return;
  }
  auto scalar = [&](const YAML::Node &value, const std::string &key,
                    const char *expected) -> std::optional<std::string> {
    if (value.IsScalar() && !value.Scalar().empty())
      return value.Scalar();
    error(at(value), "pipeline '" + key + "' must be " + expected);
    return std::nullopt;
  };
  bool hasAxis = false;
  forEachKey(
      node, "'pipeline'",
      [&](const YAML::Node &key, const std::string &name,
          const YAML::Node &value) {
        if (name == "axis") {
          if (auto text = scalar(value, name, "a mesh axis name")) {
            pipeline.axis = *text;
            hasAxis = true;
          }
        } else if (name == "batch_dim") {
          if (auto text = scalar(value, name, "a dimension name"))
            pipeline.batchDim = *text;
        } else if (name == "microbatches") {
          std::optional<std::string> text =
              scalar(value, name, "a positive integer");
          std::optional<int64_t> count =
              text ? parseSize(*text) : std::nullopt;
          if (text && (!count || *count < 1 || *count > kMaxRanks))
            error(at(value), "pipeline 'microbatches' is " + *text +
                                 "; it must be an integer from 1 to " +
                                 std::to_string(kMaxRanks));
          else if (count)
            pipeline.microbatches = *count;
        } else if (name == "schedule") {
          std::optional<std::string> text =
              scalar(value, name, "gpipe or 1f1b");
          if (text && *text == "gpipe")
            pipeline.schedule = PipelineSpec::Schedule::GPipe;
          else if (text && *text == "1f1b")
            pipeline.schedule = PipelineSpec::Schedule::OneForwardOneBackward;
          else if (text)
            error(at(value), "unknown pipeline schedule '" + *text +
                                 "' (expected gpipe or 1f1b)");
        } else if (name == "remat") {
          std::string text = value.IsScalar() ? value.Scalar() : "";
          if (text == "true" || text == "false")
            pipeline.remat = text == "true";
          else
            error(at(value), "pipeline 'remat' must be true or false");
        } else if (name == "stages") {
          if (!value.IsSequence()) {
            error(at(value), "pipeline 'stages' must list, per stage, the "
                             "scopes of its layers, e.g. [[block0, block1], "
                             "[block2, block3]]");
            return;
          }
          std::set<std::string> seen;
          for (const YAML::Node &stage : value) {
            std::vector<std::string> scopes;
            if (stage.IsScalar()) {
              scopes.push_back(stage.Scalar());
            } else if (stage.IsSequence()) {
              for (const YAML::Node &scope : stage)
                if (scope.IsScalar())
                  scopes.push_back(scope.Scalar());
                else
                  error(at(scope), "a pipeline stage lists layer scopes, "
                                   "which are names");
            } else {
              error(at(stage), "a pipeline stage lists layer scopes, which "
                               "are names");
            }
            if (scopes.empty())
              error(at(stage), "pipeline stage " +
                                   std::to_string(pipeline.stages.size()) +
                                   " lists no layer");
            for (const std::string &scope : scopes)
              if (!seen.insert(scope).second)
                error(at(stage), "layer '" + scope +
                                     "' is listed in two pipeline stages");
            pipeline.stages.push_back(std::move(scopes));
          }
        } else {
          error(at(key), "unknown key '" + name +
                             "' in 'pipeline' (expected axis, microbatches, "
                             "schedule, remat, stages or batch_dim)");
        }
      });
  if (!hasAxis)
    error(at(node), "'pipeline' has no 'axis' (the mesh axis of the stages)");
  spec.pipeline = std::move(pipeline);
}

void LayoutReader::checkPipeline(const std::optional<Mesh> &mesh,
                                 const LayoutSpec &spec) {
  if (!spec.pipeline || !mesh || spec.pipeline->axis.empty())
    return;
  const PipelineSpec &pipeline = *spec.pipeline;
  std::optional<unsigned> axis = mesh->axisIndex(pipeline.axis);
  if (!axis) {
    error(pipeline.location, "the pipeline axis '" + pipeline.axis +
                                 "' is not an axis of the mesh " +
                                 formatMesh(*mesh));
    return;
  }
  int64_t stages = mesh->axisSizes()[*axis];
  if (!pipeline.stages.empty() &&
      static_cast<int64_t>(pipeline.stages.size()) != stages)
    error(pipeline.location,
          "pipeline 'stages' lists " + std::to_string(pipeline.stages.size()) +
              " stages, but the axis '" + pipeline.axis + "' has " +
              std::to_string(stages));
  auto checkNotOnAxis = [&](const std::vector<DimRule> &rules,
                            const std::string &owner) {
    for (const DimRule &rule : rules)
      if (std::find(rule.axes.begin(), rule.axes.end(), pipeline.axis) !=
          rule.axes.end())
        error(rule.location, "dimension '" + rule.dim + "'" + owner +
                                 " is split over the pipeline axis '" +
                                 pipeline.axis +
                                 "', whose ranks hold different layers, not "
                                 "blocks of one tensor");
  };
  checkNotOnAxis(spec.rules, "");
  for (const TensorOverride &override : spec.overrides)
    checkNotOnAxis(override.rules, " of tensor '" + override.tensor + "'");
}

bool LayoutReader::readMesh(const YAML::Node &node, LayoutSpec &spec) {
  if (node.IsScalar())
    return readMeshString(node.Scalar(), at(node), spec);
  if (!node.IsMap()) {
    error(at(node), "'mesh' must map axis names to sizes, e.g. "
                    "{data: 2, model: 4}");
    return false;
  }
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  bool valid = true;
  forEachKey(node, "mesh",
             [&](const YAML::Node &key, const std::string &name,
                 const YAML::Node &value) {
               if (value.IsNull()) {
                 error(at(key), "mesh axis '" + name + "' has no size");
                 valid = false;
                 return;
               }
               if (!value.IsScalar()) {
                 error(at(value), "mesh axis '" + name +
                                      "' has a list or map as its size; "
                                      "sizes must be integers");
                 valid = false;
                 return;
               }
               const std::string &text = value.Scalar();
               std::optional<int64_t> size = parseSize(text);
               if (!size) {
                 error(at(value), "mesh axis '" + name + "' has size '" + text +
                                      "'; sizes must be integers");
                 valid = false;
                 return;
               }
               if (!checkAxisSize(name, text, *size, at(value))) {
                 valid = false;
                 return;
               }
               names.push_back(name);
               sizes.push_back(*size);
               spec.axisLocations.push_back(at(key));
             });
  if (!valid)
    return false;
  return buildMesh(std::move(names), std::move(sizes), at(node), spec);
}

void LayoutReader::readRulesString(std::string_view text,
                                   SourceLocation location,
                                   std::vector<DimRule> &rules) {
  for (std::string_view segment : splitTrimmed(text, ';')) {
    if (segment.empty())
      continue;
    size_t colon = segment.find(':');
    std::string dim(trim(segment.substr(0, colon)));
    DimRule rule{dim, {}, location};
    // "dim:" alone keeps the dimension whole, like [] in YAML; an empty
    // name between commas or a second colon is a typo, not a replication.
    bool wellFormed = !dim.empty() && colon != std::string_view::npos;
    std::string_view axesText =
        wellFormed ? trim(segment.substr(colon + 1)) : std::string_view();
    if (wellFormed && !axesText.empty())
      for (std::string_view axis : splitTrimmed(axesText, ',')) {
        if (axis.empty() || axis.find(':') != std::string_view::npos)
          wellFormed = false;
        rule.axes.emplace_back(axis);
      }
    if (!wellFormed) {
      error(location, "malformed rule '" + std::string(segment) +
                          "' (expected dim:axis or dim:axis,axis)");
      continue;
    }
    rules.push_back(std::move(rule));
  }
}

void LayoutReader::readRules(const YAML::Node &node, const std::string &owner,
                             std::vector<DimRule> &rules) {
  // An empty `layout:` or override leaves every dimension replicated.
  if (node.IsNull())
    return;
  if (node.IsScalar())
    return readRulesString(node.Scalar(), at(node), rules);
  if (!node.IsMap()) {
    error(at(node), "rules" + owner +
                        " must map dimension names to mesh axes, e.g. "
                        "{batch: data}");
    return;
  }
  forEachKey(node, "the rules" + owner,
             [&](const YAML::Node &key, const std::string &dim,
                 const YAML::Node &value) {
               DimRule rule{dim, {}, at(key)};
               if (value.IsScalar()) {
                 rule.axes.push_back(value.Scalar());
               } else if (value.IsSequence()) {
                 for (const YAML::Node &axis : value) {
                   if (!axis.IsScalar()) {
                     error(at(axis), "axes of dimension '" + dim + "'" + owner +
                                         " must be mesh axis names");
                     return;
                   }
                   rule.axes.push_back(axis.Scalar());
                 }
               } else if (!value.IsNull()) {
                 error(at(value),
                       "dimension '" + dim + "'" + owner +
                           " must map to a mesh axis or a list of them");
                 return;
               }
               rules.push_back(std::move(rule));
             });
}

void LayoutReader::readOverrides(const YAML::Node &node, LayoutSpec &spec) {
  if (node.IsNull())
    return;
  if (!node.IsMap()) {
    error(at(node), "'overrides' must map tensor names to rules, e.g. "
                    "{logits: {vocab: model}}");
    return;
  }
  // A tensor overridden twice is a key given twice, so forEachKey reports
  // it and only the first override is kept.
  forEachKey(node, "overrides",
             [&](const YAML::Node &key, const std::string &tensor,
                 const YAML::Node &value) {
               TensorOverride override{tensor, {}, at(key)};
               readRules(value, " of tensor '" + tensor + "'", override.rules);
               spec.overrides.push_back(std::move(override));
             });
}

void LayoutReader::checkRules(const std::optional<Mesh> &mesh,
                              const std::vector<DimRule> &rules,
                              const std::string &owner) {
  std::set<std::string> dims;
  for (const DimRule &rule : rules) {
    // Only the string syntax can get here with a repeated dimension; in
    // YAML it is a duplicate key, reported when the map was read.
    if (!dims.insert(rule.dim).second)
      error(rule.location,
            "dimension '" + rule.dim + "'" + owner + " has two rules");
    std::set<std::string> axes;
    for (const std::string &axis : rule.axes) {
      if (mesh && !mesh->axisIndex(axis))
        error(rule.location, "dimension '" + rule.dim + "'" + owner +
                                 " is split over '" + axis +
                                 "', which is not an axis of the mesh " +
                                 formatMesh(*mesh));
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
  // Optional rather than empty nodes: assigning to a yaml-cpp node that is
  // already bound writes through to the document instead of rebinding it.
  std::optional<YAML::Node> meshNode, layoutNode, overridesNode;
  forEachKey(root, "the layout file",
             [&](const YAML::Node &key, const std::string &name,
                 const YAML::Node &value) {
               if (name == "mesh")
                 meshNode.emplace(value);
               else if (name == "layout")
                 layoutNode.emplace(value);
               else if (name == "overrides")
                 overridesNode.emplace(value);
               else if (name == "pad_uneven")
                 readPadUneven(value, spec);
               else if (name == "pipeline")
                 readPipeline(value, spec);
               else
                 error(at(key), "unknown key '" + name +
                                    "' (expected mesh, layout, overrides, "
                                    "pad_uneven or pipeline)");
             });
  // Without a usable mesh the rules are still read, so that their own
  // mistakes are reported in the same run.
  std::optional<Mesh> mesh;
  if (!meshNode)
    error(at(root), "the layout file has no 'mesh'");
  else if (readMesh(*meshNode, spec))
    mesh = spec.mesh;
  if (layoutNode)
    readRules(*layoutNode, "", spec.rules);
  if (overridesNode)
    readOverrides(*overridesNode, spec);
  checkRules(mesh, spec.rules, "");
  for (const TensorOverride &override : spec.overrides)
    checkRules(mesh, override.rules, " of tensor '" + override.tensor + "'");
  checkPipeline(mesh, spec);
  if (errors)
    return std::nullopt;
  return spec;
}

std::optional<LayoutSpec> LayoutReader::readStrings(std::string_view mesh,
                                                    std::string_view rules) {
  LayoutSpec spec;
  spec.source = source;
  SourceLocation location{source, 0, 0};
  std::optional<Mesh> parsedMesh;
  if (readMeshString(mesh, location, spec))
    parsedMesh = spec.mesh;
  readRulesString(rules, location, spec.rules);
  checkRules(parsedMesh, spec.rules, "");
  if (errors)
    return std::nullopt;
  return spec;
}

/// Records where each document of a YAML stream starts and where its root
/// node is, without building the nodes. The parser has stalled when a
/// document starts at the very place the previous one did.
class DocumentCounter : public YAML::EventHandler {
public:
  struct Document {
    YAML::Mark start;
    YAML::Mark root;
  };

  const std::vector<Document> &documents() const { return docs; }
  bool stalled() const {
    return docs.size() > 1 &&
           docs[docs.size() - 1].start.pos == docs[docs.size() - 2].start.pos;
  }

  void OnDocumentStart(const YAML::Mark &mark) override {
    docs.push_back({mark, YAML::Mark::null_mark()});
    depth = 0;
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark &mark, YAML::anchor_t) override { node(mark); }
  void OnAlias(const YAML::Mark &mark, YAML::anchor_t) override { node(mark); }
  void OnScalar(const YAML::Mark &mark, const std::string &, YAML::anchor_t,
                const std::string &) override {
    node(mark);
  }
  void OnSequenceStart(const YAML::Mark &mark, const std::string &,
                       YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(mark);
    ++depth;
  }
  void OnSequenceEnd() override { --depth; }
  void OnMapStart(const YAML::Mark &mark, const std::string &, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    node(mark);
    ++depth;
  }
  void OnMapEnd() override { --depth; }

private:
  void node(const YAML::Mark &mark) {
    if (depth == 0 && !docs.empty())
      docs.back().root = mark;
  }

  std::vector<Document> docs;
  int depth = 0;
};

/// Runs `parse`, turning any exception that escapes it into an error, so
/// that tools built without exceptions can call the parsers safely.
std::optional<LayoutSpec>
withoutExceptions(const std::string &sourceName,
                  std::vector<Diagnostic> &diagnostics,
                  const std::function<std::optional<LayoutSpec>()> &parse) {
  std::string message;
  try {
    return parse();
  } catch (const std::exception &exception) {
    message = exception.what();
  } catch (...) {
    message = "unknown exception";
  }
  diagnostics.push_back(
      {Diagnostic::Error,
       {sourceName, 0, 0},
       "internal error while reading the layout: " + message});
  return std::nullopt;
}

} // namespace

const char *PipelineSpec::scheduleName() const {
  return schedule == Schedule::GPipe ? "gpipe" : "1f1b";
}

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
  return withoutExceptions(sourceName, diagnostics, [&]() {
    LayoutReader reader(sourceName, diagnostics);
    auto here = [&](const YAML::Mark &mark) {
      return mark.line < 0
                 ? SourceLocation{sourceName, 0, 0}
                 : SourceLocation{sourceName, mark.line + 1, mark.column + 1};
    };
    std::string text(yamlText);
    // yaml-cpp 0.7's LoadAll never returns on some malformed streams, such
    // as one that starts with ',' (jbeder/yaml-cpp#1040, fixed upstream
    // after 0.8 by #1319; Debian bookworm ships 0.7): the parser reports an
    // empty document without consuming the token, again and again, and
    // LoadAll keeps every one until memory runs out. So tessel counts the
    // documents with a parser it drives itself, stopping when one starts
    // where the previous one did, and loads only a stream of exactly one.
    DocumentCounter counter;
    YAML::Node document;
    // yaml-cpp reports malformed input by throwing; the mark says where.
    try {
      std::istringstream stream(text);
      YAML::Parser parser(stream);
      while (parser.HandleNextDocument(counter) && !counter.stalled())
        ;
      if (counter.stalled()) {
        const YAML::Mark mark = counter.documents().back().start;
        std::string_view found =
            mark.pos >= 0 && size_t(mark.pos) < text.size()
                ? std::string_view(text).substr(mark.pos, 1)
                : std::string_view();
        diagnostics.push_back(
            {Diagnostic::Error, here(mark),
             "malformed YAML: unexpected '" + std::string(found) + "'"});
        return std::optional<LayoutSpec>();
      }
      if (counter.documents().size() == 1)
        document = YAML::Load(text);
    } catch (const YAML::Exception &exception) {
      diagnostics.push_back({Diagnostic::Error, here(exception.mark),
                             "malformed YAML: " + exception.msg});
      return std::optional<LayoutSpec>();
    }
    const std::vector<DocumentCounter::Document> &documents =
        counter.documents();
    if (documents.empty()) {
      diagnostics.push_back({Diagnostic::Error,
                             {sourceName, 0, 0},
                             "the layout file is empty; it needs a 'mesh'"});
      return std::optional<LayoutSpec>();
    }
    // A second document would otherwise be ignored without a word.
    if (documents.size() > 1) {
      diagnostics.push_back({Diagnostic::Error, here(documents[1].root),
                             "a layout file holds one YAML document, not " +
                                 std::to_string(documents.size())});
      return std::optional<LayoutSpec>();
    }
    return reader.readYaml(document);
  });
}

std::optional<LayoutSpec>
tessel::layout::parseLayoutFile(const std::string &path,
                                std::vector<Diagnostic> &diagnostics) {
  return withoutExceptions(path, diagnostics, [&]() {
    auto reportFailure = [&](const char *what) {
      diagnostics.push_back({Diagnostic::Error,
                             {path, 0, 0},
                             std::string(what) + ": " + std::strerror(errno)});
      return std::optional<LayoutSpec>();
    };
    // stdio rather than iostreams, because it says why a file could not be
    // opened or read (a directory opens but cannot be read).
    if (std::optional<std::string> why = notATextFile(path)) {
      diagnostics.push_back({Diagnostic::Error, {path, 0, 0}, *why});
      return std::optional<LayoutSpec>();
    }
    errno = 0;
    std::unique_ptr<std::FILE, int (*)(std::FILE *)> file(
        std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!file)
      return reportFailure("cannot open layout file");
    std::string text;
    char buffer[4096];
    while (size_t count = std::fread(buffer, 1, sizeof(buffer), file.get()))
      text.append(buffer, count);
    if (std::ferror(file.get()))
      return reportFailure("cannot read layout file");
    return parseLayoutText(text, path, diagnostics);
  });
}

std::optional<LayoutSpec>
tessel::layout::parseLayoutStrings(std::string_view mesh,
                                   std::string_view rules,
                                   std::vector<Diagnostic> &diagnostics) {
  return withoutExceptions(kCommandLine, diagnostics, [&]() {
    return LayoutReader(kCommandLine, diagnostics).readStrings(mesh, rules);
  });
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
