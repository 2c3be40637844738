//===- ShardIndexFuzzer.cpp - libFuzzer target for checkpoint indexes -----===//
//
// Feeds arbitrary bytes, as the model.safetensors.index.json of a sharded
// checkpoint (which shard file holds which tensor), to parseShardIndex. Any
// error is a correct answer; a crash, a hang, a sanitizer report or an
// exception that escapes the parser is a bug. Beyond not crashing, a
// refusal must give a reason, and an accepted index must keep its promises:
// every file is a plain name in the checkpoint's directory (no path, not
// "." or ".."), the file list is the weight map's files sorted and each
// once, a step is a count, and the index tessel writes for the same map and
// step parses back to them.
//
//===----------------------------------------------------------------------===//

#include "Require.h"
#include "safetensors/ShardIndex.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <string>
#include <vector>

using namespace tessel::safetensors;

namespace {

/// Aborts, naming this fuzzer, when the reader breaks the promise `what`.
void require(bool condition, const char *what) {
  tessel::fuzz::requireOrAbort(condition, "ShardIndexFuzzer", what);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  ShardIndex index;
  std::string why;
  if (!parseShardIndex(text, index, why)) {
    require(!why.empty(), "a refusal gives no reason");
    return 0;
  }
  std::set<std::string> files;
  for (const auto &[tensor, file] : index.weightMap) {
    require(!file.empty() && file != "." && file != ".." &&
                file.find('/') == std::string::npos &&
                file.find('\0') == std::string::npos,
            "a shard file is not a plain name in the directory");
    files.insert(file);
  }
  require(std::vector<std::string>(files.begin(), files.end()) == index.files,
          "the file list is not the weight map's files, sorted, each once");
  require(!index.step || *index.step >= 0, "the step is negative");
  ShardIndex again;
  require(parseShardIndex(
              shardIndexText(index.weightMap, 0, index.step.value_or(0)), again,
              why),
          "the index written for an accepted map does not parse");
  require(again.weightMap == index.weightMap &&
              again.step == index.step.value_or(0) && again.format == "tessel",
          "the index written for an accepted map reads back otherwise");
  return 0;
}
