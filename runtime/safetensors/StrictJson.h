//===- StrictJson.h - JSON objects whose keys must not repeat ---*- C++ -*-===//
//
// JSON lets an object give a key twice and nlohmann keeps the last value,
// so a safetensors header or a sharded checkpoint's index naming a tensor
// twice would load one of the two silently. The parse here notes the first
// repeated key instead. Internal to the safetensors library: the header
// includes nlohmann/json, which the MLIR tools (built without exceptions)
// must not see.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_SAFETENSORS_STRICTJSON_H
#define TESSEL_RUNTIME_SAFETENSORS_STRICTJSON_H

#include <nlohmann/json.hpp>

#include <string>

namespace tessel::safetensors {

/// The first key that an object of a parsed document gives twice.
struct RepeatedKey {
  /// Empty when no key repeats.
  std::string key;
  /// The key under which the object that repeats it sits ("" for the
  /// document itself).
  std::string parent;
};

/// Parses `text` without exceptions (a discarded value when it is not
/// JSON), noting in `repeated` the first key an object gives twice.
nlohmann::json parseNotingRepeats(const std::string &text,
                                  RepeatedKey &repeated);

} // namespace tessel::safetensors

#endif // TESSEL_RUNTIME_SAFETENSORS_STRICTJSON_H
