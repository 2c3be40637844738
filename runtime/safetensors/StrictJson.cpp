//===- StrictJson.cpp - JSON objects whose keys must not repeat -----------===//

#include "safetensors/StrictJson.h"

#include <set>
#include <utility>
#include <vector>

namespace tessel::safetensors {

using nlohmann::json;

nlohmann::json parseNotingRepeats(const std::string &text,
                                  RepeatedKey &repeated) {
  repeated = {};
  // The keys seen so far in each object being parsed, innermost last, with
  // the key each object sits under.
  std::vector<std::pair<std::set<std::string>, std::string>> open;
  std::string lastKey;
  auto note = [&](int, json::parse_event_t event, json &parsed) {
    switch (event) {
    case json::parse_event_t::object_start:
      open.push_back({{}, open.empty() ? std::string() : lastKey});
      break;
    case json::parse_event_t::object_end:
      if (!open.empty())
        open.pop_back();
      break;
    case json::parse_event_t::key:
      if (parsed.is_string() && !open.empty()) {
        lastKey = parsed.get<std::string>();
        if (!open.back().first.insert(lastKey).second && repeated.key.empty())
          repeated = {lastKey, open.back().second};
      }
      break;
    default:
      break;
    }
    return true;
  };
  return json::parse(text, note, /*allow_exceptions=*/false);
}

} // namespace tessel::safetensors
