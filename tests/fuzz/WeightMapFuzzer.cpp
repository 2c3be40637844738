//===- WeightMapFuzzer.cpp - libFuzzer target for name maps ---------------===//
//
// Feeds arbitrary bytes, as the YAML name map of `tessel import-weights`
// and `export-weights` (which PyTorch tensor is which tessel parameter), to
// parseWeightMap. Any error is a correct answer; a crash, a hang, a
// sanitizer report or an exception that escapes the reader is a bug. Beyond
// not crashing, a refusal must name the file, and an accepted map must
// keep its promises: every entry says where it is, a parameter is mapped
// once, and the parts of a split tensor are consecutive and numbered in
// order.
//
//===----------------------------------------------------------------------===//

#include "Require.h"
#include "weights/WeightMap.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>

using namespace tessel::weights;

namespace {

/// Aborts, naming this fuzzer, when the reader breaks the promise `what`.
void require(bool condition, const char *what) {
  tessel::fuzz::requireOrAbort(condition, "WeightMapFuzzer", what);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string error;
  std::optional<WeightMap> map = parseWeightMap(text, "map.yaml", error);
  if (!map) {
    require(error.rfind("map.yaml", 0) == 0,
            "a refusal does not name the file");
    return 0;
  }
  std::set<std::string> ours;
  const MapEntry *previous = nullptr;
  for (const MapEntry &entry : map->entries) {
    require(entry.where.rfind("map.yaml:", 0) == 0,
            "an entry does not say where it is");
    require(entry.ours.empty() || ours.insert(entry.ours).second,
            "a parameter is mapped twice");
    if (entry.splitAxis >= 0 && entry.part > 0)
      require(previous && previous->theirs == entry.theirs &&
                  previous->part == entry.part - 1,
              "the parts of a split tensor are not consecutive");
    require(map->findTheirs(entry.theirs) != nullptr,
            "an entry is not found by its PyTorch name");
    previous = &entry;
  }
  return 0;
}
