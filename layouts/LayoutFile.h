//===- LayoutFile.h - the user's layout: a mesh and its rules ---*- C++ -*-===//
//
// A layout is a whole parallelisation strategy: a mesh with named axes, and
// rules that map dimension names onto mesh axes, with optional per-tensor
// overrides. It is read from a YAML file
//
//   mesh: {data: 2, model: 4}
//   layout: {batch: data, hidden: model, d_ff: [data, model]}
//   overrides: {logits: {vocab: model}}
//
// or from Mesh-TensorFlow's strings: mesh "data:2;model:4" and rules
// "batch:data;hidden:model" (several axes: "d_ff:data,model"). The YAML file
// may also use the strings as the values of `mesh` and `layout`.
//
// Every mistake is reported as a Diagnostic that names the file, line and
// column. The parsers never throw: yaml-cpp's exceptions are caught inside,
// so tools built without exceptions can call them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LAYOUTS_LAYOUTFILE_H
#define TESSEL_LAYOUTS_LAYOUTFILE_H

#include "layouts/Mesh.h"
#include "layouts/Sharding.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessel::layout {

/// A place in a layout file; lines and columns count from 1, and line 0
/// means the place is unknown (the command line, a missing file).
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
};

struct Diagnostic {
  enum Severity { Error, Warning };
  Severity severity = Error;
  SourceLocation location;
  std::string message;

  /// Spells the diagnostic as "file:line:col: error: message".
  std::string str() const;
};

/// One rule: a dimension name and the axes that split it.
struct DimRule {
  std::string dim;
  AxisList axes;
  SourceLocation location;
};

/// Rules that apply to one named tensor only, ahead of the general rules.
struct TensorOverride {
  std::string tensor;
  std::vector<DimRule> rules;
  SourceLocation location;
};

/// How a pipelined training step runs (the `pipeline:` section, issue 20;
/// docs/pipeline.md): the mesh axis whose ranks are the stages, the number
/// of micro-batches a batch is cut into, the schedule, and which of the
/// model's layer calls each stage runs.
struct PipelineSpec {
  enum class Schedule { GPipe, OneForwardOneBackward };

  /// The mesh axis of the stages; its size is the number of stages.
  std::string axis;
  int64_t microbatches = 1;
  Schedule schedule = Schedule::OneForwardOneBackward;
  /// Recompute each stage's forward in its backward instead of keeping
  /// its activations.
  bool remat = false;
  /// The dimension that micro-batches cut.
  std::string batchDim = "batch";
  /// Per stage, the scopes of the model's layer calls (`func.call` with
  /// `tessel.scope`) that it starts with; empty: the repeated layers are
  /// shared out evenly.
  std::vector<std::vector<std::string>> stages;
  SourceLocation location;

  /// "gpipe" or "1f1b".
  const char *scheduleName() const;
};

struct LayoutSpec {
  /// The file the layout came from, or "<command line>".
  std::string source;
  Mesh mesh;
  /// Where each mesh axis was declared.
  std::vector<SourceLocation> axisLocations;
  std::vector<DimRule> rules;
  std::vector<TensorOverride> overrides;
  /// `pad_uneven: true`: a split that does not divide its dimension gives
  /// every rank ceil(size / blocks) elements and pads the last blocks
  /// (docs/layouts.md); without it such a split is an error.
  bool padUneven = false;
  /// The `pipeline:` section, if the layout pipelines the training step.
  std::optional<PipelineSpec> pipeline;

  /// Returns the axes that split `dim` of the tensor named `tensor`: its
  /// override if it has one for `dim`, else the rule for `dim`, else none
  /// (replicated). `tensor` may be empty for a value without a name.
  AxisList axesFor(std::string_view tensor, std::string_view dim) const;

  /// Returns the rule that decided axesFor, or nullptr when none did.
  const DimRule *ruleFor(std::string_view tensor, std::string_view dim) const;
};

/// Reads a YAML layout file. Appends every problem found to `diagnostics` and
/// returns std::nullopt if any of them is an error; warnings may come with a
/// layout.
std::optional<LayoutSpec> parseLayoutFile(const std::string &path,
                                          std::vector<Diagnostic> &diagnostics);

/// Reads YAML layout text; `sourceName` names it in diagnostics.
std::optional<LayoutSpec> parseLayoutText(std::string_view yamlText,
                                          const std::string &sourceName,
                                          std::vector<Diagnostic> &diagnostics);

/// Reads Mesh-TensorFlow's mesh and rules strings; diagnostics name the
/// source "<command line>" and carry no line.
std::optional<LayoutSpec>
parseLayoutStrings(std::string_view mesh, std::string_view rules,
                   std::vector<Diagnostic> &diagnostics);

/// Spells a mesh and rules in the string syntax.
std::string formatMesh(const Mesh &mesh);
std::string formatRules(const std::vector<DimRule> &rules);

} // namespace tessel::layout

#endif // TESSEL_LAYOUTS_LAYOUTFILE_H
