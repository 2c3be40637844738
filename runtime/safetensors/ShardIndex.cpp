//===- ShardIndex.cpp - The index of a sharded checkpoint -----------------===//

#include "safetensors/ShardIndex.h"

#include "layouts/StrictJson.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>

namespace tessel::safetensors {

using nlohmann::json;

std::string shardFileName(int64_t number, int64_t count) {
  return fmt::format("model-{:05d}-of-{:05d}.safetensors", number, count);
}

namespace {

/// A name that opens a file in the index's own directory and nowhere else.
bool isPlainFileName(const std::string &name) {
  return !name.empty() && name != "." && name != ".." &&
         name.find('/') == std::string::npos &&
         name.find('\0') == std::string::npos;
}

} // namespace

bool parseShardIndex(const std::string &text, ShardIndex &index,
                     std::string &why) {
  index = {};
  layout::RepeatedKey repeated;
  json document = layout::parseNotingRepeatedKey(text, repeated);
  if (document.is_discarded() || !document.is_object()) {
    why = "it is not a JSON object";
    return false;
  }
  if (!repeated.key.empty()) {
    why = repeated.path == "weight_map"
              ? fmt::format("its weight_map names tensor '{}' twice",
                            repeated.key)
              : fmt::format("it gives key '{}' twice{}", repeated.key,
                            repeated.path.empty()
                                ? std::string()
                                : " in '" + repeated.path + "'");
    return false;
  }
  auto weightMap = document.find("weight_map");
  if (weightMap == document.end() || !weightMap->is_object()) {
    why = "it has no \"weight_map\" object (not a sharded checkpoint's index?)";
    return false;
  }
  for (const auto &[tensor, file] : weightMap->items()) {
    if (!file.is_string()) {
      why =
          fmt::format("its weight_map gives tensor '{}' no file name", tensor);
      return false;
    }
    std::string name = file.get<std::string>();
    if (!isPlainFileName(name)) {
      why = fmt::format("its weight_map gives tensor '{}' the file '{}', "
                        "which is not a file of the index's directory",
                        tensor, name);
      return false;
    }
    index.weightMap[tensor] = name;
    index.files.push_back(name);
  }
  std::sort(index.files.begin(), index.files.end());
  index.files.erase(std::unique(index.files.begin(), index.files.end()),
                    index.files.end());
  auto metadata = document.find("metadata");
  if (metadata == document.end())
    return true;
  if (!metadata->is_object()) {
    why = "its \"metadata\" is not an object";
    return false;
  }
  auto format = metadata->find("format");
  if (format != metadata->end() && format->is_string())
    index.format = format->get<std::string>();
  auto step = metadata->find("step");
  if (step == metadata->end())
    return true;
  int64_t count = -1;
  std::string digits = step->is_string() ? step->get<std::string>() : "";
  const char *end = digits.data() + digits.size();
  auto [at, failure] = std::from_chars(digits.data(), end, count);
  if (digits.empty() || failure != std::errc() || at != end || count < 0) {
    why = "its metadata's \"step\" is not a step count";
    return false;
  }
  index.step = count;
  return true;
}

std::string shardIndexText(const std::map<std::string, std::string> &weightMap,
                           uint64_t totalSize, int64_t step) {
  json document = {{"metadata",
                    {{"total_size", totalSize},
                     {"format", "tessel"},
                     {"step", std::to_string(step)}}},
                   {"weight_map", weightMap}};
  return document.dump(2) + "\n";
}

} // namespace tessel::safetensors
