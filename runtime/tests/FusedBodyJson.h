//===- FusedBodyJson.h - tessel.fused descriptors written in tests -*- C++ -*-===//
//
// The CPU's fused kernel (FusedElementwiseTest.cpp) and the GPU's
// per-element program (gpu/tests/FusedBodyTest.cpp) are tested on the same
// kind of input: a tessel.fused op descriptor, the JSON that codegen emits,
// written by hand. These build its parts.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_TESTS_FUSEDBODYJSON_H
#define TESSEL_RUNTIME_TESTS_FUSEDBODYJSON_H

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace tessel::runtime::test {

using nlohmann::json;

/// A tensor type: named dims, their sizes, and the element type.
inline json T(std::vector<std::string> dims, std::vector<int64_t> shape,
              const char *type = "f32") {
  return {{"dims", dims}, {"shape", shape}, {"type", type}};
}

/// A body entry: `op` on the body's values `args` (operands first, then
/// earlier entries' results), of type `result`.
inline json E(const char *op, std::vector<int> args, json result,
              json attrs = json::object()) {
  return {{"op", op}, {"args", args}, {"result", result}, {"attrs", attrs}};
}

/// A constant body entry, a splat of `value` (a number or "inf", "-inf",
/// "nan").
inline json C(json value, json result = T({}, {})) {
  return E("tessel.constant", {}, std::move(result), {{"value", value}});
}

/// A comparison entry: an i1 of `result`'s dims.
inline json compare(const char *kind, std::vector<int> args, json result) {
  result["type"] = "i1";
  return E("tessel.compare", std::move(args), result, {{"kind", kind}});
}

/// The descriptor of a tessel.fused op, as codegen writes it.
inline std::string fusedDescriptorJson(const std::vector<json> &operands,
                                       const json &result,
                                       const std::vector<json> &body,
                                       const char *loc = "test.mlir:1:1") {
  return json{{"op", "tessel.fused"},
              {"loc", loc},
              {"operands", operands},
              {"result", result},
              {"attrs", {{"body", body}}}}
      .dump();
}

} // namespace tessel::runtime::test

#endif // TESSEL_RUNTIME_TESTS_FUSEDBODYJSON_H
