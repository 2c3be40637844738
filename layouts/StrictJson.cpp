//===- StrictJson.cpp - JSON objects whose keys must not repeat -----------===//

#include "layouts/StrictJson.h"

#include <cstdint>
#include <limits>
#include <set>
#include <utility>
#include <vector>

namespace tessel::layout {

using nlohmann::json;

json parseNotingRepeatedKey(const std::string &text, RepeatedKey &repeated) {
  repeated = {};
  // Each object or array being parsed, innermost last.
  struct Open {
    bool array = false;
    int64_t elements = 0;
    std::set<std::string> keys;
    std::string path;
  };
  std::vector<Open> open;
  std::string lastKey;
  // The path of the value that starts now: an array's next element or the
  // value of the object's last key.
  auto pathOfNewValue = [&]() -> std::string {
    if (open.empty())
      return "";
    Open &parent = open.back();
    if (parent.array)
      return parent.path + "[" + std::to_string(parent.elements++) + "]";
    return parent.path.empty() ? lastKey : parent.path + "." + lastKey;
  };
  auto note = [&](int, json::parse_event_t event, json &parsed) {
    switch (event) {
    case json::parse_event_t::object_start:
    case json::parse_event_t::array_start: {
      std::string path = pathOfNewValue();
      open.push_back(
          {event == json::parse_event_t::array_start, 0, {}, std::move(path)});
      break;
    }
    case json::parse_event_t::object_end:
    case json::parse_event_t::array_end:
      if (!open.empty())
        open.pop_back();
      break;
    case json::parse_event_t::key:
      if (parsed.is_string() && !open.empty()) {
        lastKey = parsed.get<std::string>();
        if (!open.back().keys.insert(lastKey).second && repeated.key.empty())
          repeated = {lastKey, open.back().path};
      }
      break;
    case json::parse_event_t::value:
      // A scalar element of an array; an object or array element counted
      // itself when it started.
      if (!open.empty() && open.back().array)
        ++open.back().elements;
      break;
    }
    return true;
  };
  return json::parse(text, note, /*allow_exceptions=*/false);
}

std::optional<int64_t> int64Value(const json &value) {
  if (!value.is_number_integer() ||
      (value.is_number_unsigned() &&
       value.get<uint64_t>() >
           static_cast<uint64_t>(std::numeric_limits<int64_t>::max())))
    return std::nullopt;
  return value.get<int64_t>();
}

} // namespace tessel::layout
