//===- ShardIndex.h - The index of a sharded checkpoint ---------*- C++ -*-===//
//
// A checkpoint too large for one writer is a directory of safetensors files
// ("shards") and an index, in Hugging Face's sharded format:
// model.safetensors.index.json, a JSON object whose "weight_map" gives for
// each tensor the shard file that holds it, and whose "metadata" holds the
// total size and, in tessel's checkpoints, "format": "tessel" and the step
// count. Each shard is a safetensors file of whole (global) tensors.
// Transformers' and safetensors' own loaders read such a directory, and
// tessel writes its training checkpoints this way, one shard per writing
// rank (driver/Checkpoint.h).
//
// This file parses and writes the index only; CheckpointFile.h reads the
// shards. Nothing in an index is trusted: a tensor named twice, a file that
// is not a plain name in the directory (a path, "..") or a step that is not
// a count is an error.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_SAFETENSORS_SHARDINDEX_H
#define TESSEL_RUNTIME_SAFETENSORS_SHARDINDEX_H

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tessel::safetensors {

/// The index's name in a sharded checkpoint's directory.
constexpr const char *kIndexFileName = "model.safetensors.index.json";

/// The name of shard `number` (from 1) of `count`, as Hugging Face names
/// them: "model-00001-of-00004.safetensors".
std::string shardFileName(int64_t number, int64_t count);

/// A parsed index.
struct ShardIndex {
  /// Tensor name -> shard file name (a plain name in the index's directory).
  std::map<std::string, std::string> weightMap;
  /// The shard files, sorted, each once.
  std::vector<std::string> files;
  /// metadata.step, when it is there and a count.
  std::optional<int64_t> step;
  /// metadata.format, when it is there and a string ("tessel").
  std::string format;
};

/// Parses the text of an index. False with the reason in `why` (which does
/// not name the file) when it is not a JSON object with a "weight_map"
/// object of strings that are plain file names, names a tensor twice, or
/// has a "metadata" that is not an object or a "step" that is not a string
/// of digits.
bool parseShardIndex(const std::string &text, ShardIndex &index,
                     std::string &why);

/// The text of an index: `weightMap`, and metadata holding `totalSize`
/// (the bytes of the tensors' data, as Hugging Face's writers store it),
/// "format": "tessel" and `step`.
std::string shardIndexText(const std::map<std::string, std::string> &weightMap,
                           uint64_t totalSize, int64_t step);

} // namespace tessel::safetensors

#endif // TESSEL_RUNTIME_SAFETENSORS_SHARDINDEX_H
