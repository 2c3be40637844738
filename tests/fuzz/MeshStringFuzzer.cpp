//===- MeshStringFuzzer.cpp - libFuzzer target for mesh and rules strings -===//
//
// Feeds arbitrary bytes to the Mesh-TensorFlow string parser: the bytes up
// to the first newline are the mesh ("data:2;model:4"), the rest are the
// rules ("batch:data;d_ff:data,model"), as tessel-apply-layout's `mesh=` and
// `rules=` options would pass them.
//
// An accepted layout must survive a round trip: formatMesh and formatRules
// spell it in the same syntax, and reading that back must give the same
// mesh and rules. On small meshes the rank numbering is exercised too
// (coordinates, groups), since every accepted mesh reaches that code.
//
//===----------------------------------------------------------------------===//

#include "Require.h"
#include "layouts/LayoutFile.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

using namespace tessel::layout;

namespace {

/// Aborts, naming this fuzzer, when the reader breaks the promise `what`.
void require(bool condition, const char *what) {
  tessel::fuzz::requireOrAbort(condition, "MeshStringFuzzer", what);
}

/// Walks every rank of a mesh small enough to enumerate, checking that
/// coordinates and ranks are inverse and that the groups of every rule
/// partition the ranks.
void exerciseMesh(const Mesh &mesh, const std::vector<DimRule> &rules) {
  const int64_t ranks = mesh.numRanks();
  if (ranks > 256)
    return;
  for (int64_t rank = 0; rank < ranks; ++rank)
    require(mesh.rankAt(mesh.coordinatesOf(rank)) == rank,
            "coordinatesOf and rankAt disagree");
  for (const DimRule &rule : rules) {
    int64_t members = 0;
    for (const std::vector<int64_t> &group : mesh.groups(rule.axes))
      members += static_cast<int64_t>(group.size());
    require(members == ranks, "groups do not partition the ranks");
    require(mesh.groupSize(rule.axes) == splitCount(mesh, rule.axes),
            "group size and split count disagree");
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  size_t newline = text.find('\n');
  std::string_view meshText = text.substr(0, newline);
  std::string_view rulesText = newline == std::string_view::npos
                                   ? std::string_view()
                                   : text.substr(newline + 1);

  std::vector<Diagnostic> diagnostics;
  std::optional<LayoutSpec> spec =
      parseLayoutStrings(meshText, rulesText, diagnostics);
  for (const Diagnostic &diagnostic : diagnostics)
    (void)diagnostic.str();
  if (!spec)
    return 0;

  std::string mesh = formatMesh(spec->mesh);
  std::string rules = formatRules(spec->rules);
  std::vector<Diagnostic> again;
  std::optional<LayoutSpec> reread = parseLayoutStrings(mesh, rules, again);
  require(reread.has_value(), "a formatted layout does not parse again");
  require(reread->mesh == spec->mesh, "the mesh changed in a round trip");
  require(reread->rules.size() == spec->rules.size(),
          "the rule count changed in a round trip");
  for (size_t i = 0; i < spec->rules.size(); ++i)
    require(reread->rules[i].dim == spec->rules[i].dim &&
                reread->rules[i].axes == spec->rules[i].axes,
            "a rule changed in a round trip");
  exerciseMesh(spec->mesh, spec->rules);
  return 0;
}
