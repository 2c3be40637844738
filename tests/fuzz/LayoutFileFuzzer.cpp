//===- LayoutFileFuzzer.cpp - libFuzzer target for YAML layout files ------===//
//
// Feeds arbitrary bytes to the YAML layout reader. Any diagnostic is a
// correct answer; a crash, a sanitizer report or an exception that escapes
// the reader (it promises never to throw) is a bug.
//
// Beyond not crashing, a layout that is accepted must hold what the reader
// promises its callers: a valid mesh whose rank count stays within the
// limit, and rules that name only axes of that mesh, each once. Those are
// checked here because the passes rely on them without checking again.
//
//===----------------------------------------------------------------------===//

#include "Require.h"
#include "layouts/LayoutFile.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <string_view>
#include <vector>

using namespace tessel::layout;

namespace {

/// Aborts, naming this fuzzer, when an accepted layout breaks the promise
/// `what` of the reader.
void require(bool condition, const char *what) {
  tessel::fuzz::requireOrAbort(condition, "LayoutFileFuzzer: accepted layout",
                               what);
}

void checkRules(const Mesh &mesh, const std::vector<DimRule> &rules) {
  for (const DimRule &rule : rules) {
    std::set<std::string> axes;
    for (const std::string &axis : rule.axes) {
      require(mesh.axisIndex(axis).has_value(), "splits over an unknown axis");
      require(axes.insert(axis).second, "uses an axis twice in one rule");
    }
    // Exercise the layout maths on the accepted rule, as the passes do.
    require(splitCount(mesh, rule.axes) >= 1, "has a split count below 1");
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view text(reinterpret_cast<const char *>(data), size);
  std::vector<Diagnostic> diagnostics;
  std::optional<LayoutSpec> spec =
      parseLayoutText(text, "fuzz.yaml", diagnostics);
  for (const Diagnostic &diagnostic : diagnostics)
    (void)diagnostic.str();
  if (!spec) {
    bool hasError = false;
    for (const Diagnostic &diagnostic : diagnostics)
      hasError |= diagnostic.severity == Diagnostic::Error;
    require(hasError, "was refused without an error");
    return 0;
  }
  std::string message;
  require(validateMesh(spec->mesh.axisNames(), spec->mesh.axisSizes(), message),
          "has an invalid mesh");
  int64_t ranks = spec->mesh.numRanks();
  require(ranks >= 1 && ranks <= (int64_t(1) << 31), "has too many ranks");
  checkRules(spec->mesh, spec->rules);
  for (const TensorOverride &override : spec->overrides)
    checkRules(spec->mesh, override.rules);
  (void)formatMesh(spec->mesh);
  (void)formatRules(spec->rules);
  return 0;
}
