//===- StrictJson.h - JSON objects whose keys must not repeat ---*- C++ -*-===//
//
// JSON lets an object give a key twice and nlohmann keeps the last value,
// so a safetensors header, a sharded checkpoint's index or a machine
// profile giving a key twice would be read with one of the two values
// silently. The parse here notes the first repeated key, and where it is,
// instead. The readers of those files share it, and the check that a
// number is an integer before nlohmann casts it to one.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_LAYOUTS_STRICTJSON_H
#define TESSEL_LAYOUTS_STRICTJSON_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>

namespace tessel::layout {

/// The first key that an object of a parsed document gives twice.
struct RepeatedKey {
  /// Empty when no key repeats.
  std::string key;
  /// Where the object that repeats it sits: "" for the document itself,
  /// "w" for the value of the top-level key "w", "kernels[1].classes"
  /// deeper in.
  std::string path;
};

/// Parses `text` without exceptions (a discarded value when it is not
/// JSON), noting in `repeated` the first key an object gives twice.
nlohmann::json parseNotingRepeatedKey(const std::string &text,
                                      RepeatedKey &repeated);

/// `value` when it is a JSON integer of int64_t's range; nullopt for a
/// float (nlohmann's `get<int64_t>` casts it: undefined behaviour past the
/// range, a silent truncation within it), a larger unsigned integer or any
/// other type.
std::optional<int64_t> int64Value(const nlohmann::json &value);

} // namespace tessel::layout

#endif // TESSEL_LAYOUTS_STRICTJSON_H
