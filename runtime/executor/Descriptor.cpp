//===- Descriptor.cpp - Op descriptors parsed from the compiler's JSON ----===//

#include "executor/Descriptor.h"

#include "executor/Buffers.h"
#include "layouts/CheckedArithmetic.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <limits>

namespace tessel::runtime {

using nlohmann::json;

int64_t TensorType::numElements() const {
  int64_t count = 1;
  for (int64_t size : shape)
    count *= size;
  return count;
}

int64_t TensorType::numBytes() const {
  return numElements() * static_cast<int64_t>(elementBytes(type));
}

int TensorType::dimIndex(const std::string &name, const char *what) const {
  for (int i = 0; i < rank(); ++i)
    if (dims[i] == name)
      return i;
  throw OpError(
      fmt::format("{} has no dim '{}' (it is {})", what, name, str()));
}

std::string TensorType::str() const {
  std::vector<std::string> parts;
  for (int i = 0; i < rank(); ++i)
    parts.push_back(fmt::format("{}:{}", dims[i], shape[i]));
  return fmt::format("[{}] {}", fmt::join(parts, ", "),
                     ref::elementTypeName(type));
}

TensorType parseTensorType(const json &value, const std::string &what) {
  if (!value.is_object())
    throw OpError(fmt::format("{} is not a tensor object", what));
  auto dims = value.find("dims");
  auto shape = value.find("shape");
  auto type = value.find("type");
  if (dims == value.end() || shape == value.end() || type == value.end() ||
      !dims->is_array() || !shape->is_array() || !type->is_string())
    throw OpError(fmt::format(
        "{} needs \"dims\" (strings), \"shape\" (integers) and \"type\"",
        what));
  TensorType result;
  for (const json &dim : *dims) {
    if (!dim.is_string())
      throw OpError(fmt::format("{}: a dim name is not a string", what));
    result.dims.push_back(dim.get<std::string>());
  }
  for (const json &size : *shape) {
    if (!size.is_number_integer() || size.get<int64_t>() < 0)
      throw OpError(
          fmt::format("{}: a size is not a non-negative integer", what));
    result.shape.push_back(size.get<int64_t>());
  }
  if (result.dims.size() != result.shape.size())
    throw OpError(fmt::format("{} has {} dims but {} sizes", what,
                              result.dims.size(), result.shape.size()));
  std::optional<ref::ElementType> elementType =
      ref::parseElementType(type->get<std::string>());
  if (!elementType)
    throw OpError(fmt::format("{} has unknown element type '{}'", what,
                              type->get<std::string>()));
  result.type = *elementType;
  // numElements and numBytes multiply the sizes in int64_t; a shape whose
  // bytes do not fit (a damaged or hand-edited program) is refused here,
  // once (found by MetadataFuzzer: signed overflow, undefined behaviour).
  std::optional<int64_t> elements = checkedProduct(result.shape);
  if (!elements ||
      !checkedMul(*elements, static_cast<int64_t>(elementBytes(result.type))))
    throw OpError(fmt::format("{} ({}) is larger than 2^63 - 1 bytes", what,
                              result.str()));
  return result;
}

std::optional<double> jsonNumber(const json &value) {
  if (value.is_number())
    return value.get<double>();
  if (value.is_boolean())
    return value.get<bool>() ? 1.0 : 0.0;
  if (value.is_string()) {
    const std::string &text = value.get_ref<const std::string &>();
    if (text == "inf" || text == "+inf")
      return std::numeric_limits<double>::infinity();
    if (text == "-inf")
      return -std::numeric_limits<double>::infinity();
    if (text == "nan")
      return std::numeric_limits<double>::quiet_NaN();
  }
  return std::nullopt;
}

namespace {

const json *findAttr(const OpDescriptor &desc, const char *name,
                     bool required) {
  auto it = desc.attrs.find(name);
  if (it != desc.attrs.end())
    return &*it;
  if (required)
    throw OpError(fmt::format("attribute '{}' is missing", name));
  return nullptr;
}

[[noreturn]] void wrongType(const char *name, const char *expected) {
  throw OpError(fmt::format("attribute '{}' is not {}", name, expected));
}

} // namespace

std::string OpDescriptor::stringAttr(const char *name) const {
  const json *value = findAttr(*this, name, true);
  if (!value->is_string())
    wrongType(name, "a string");
  return value->get<std::string>();
}

std::vector<std::string> OpDescriptor::stringListAttr(const char *name) const {
  const json *value = findAttr(*this, name, true);
  if (!value->is_array())
    wrongType(name, "a list of strings");
  std::vector<std::string> result;
  for (const json &element : *value) {
    if (!element.is_string())
      wrongType(name, "a list of strings");
    result.push_back(element.get<std::string>());
  }
  return result;
}

int64_t OpDescriptor::intAttr(const char *name,
                              std::optional<int64_t> fallback) const {
  const json *value = findAttr(*this, name, !fallback);
  if (!value)
    return *fallback;
  if (!value->is_number_integer())
    wrongType(name, "an integer");
  return value->get<int64_t>();
}

std::vector<int64_t>
OpDescriptor::intListAttr(const char *name,
                          std::optional<std::vector<int64_t>> fallback) const {
  const json *value = findAttr(*this, name, !fallback);
  if (!value)
    return *fallback;
  if (!value->is_array())
    wrongType(name, "a list of integers");
  std::vector<int64_t> result;
  for (const json &element : *value) {
    if (!element.is_number_integer())
      wrongType(name, "a list of integers");
    result.push_back(element.get<int64_t>());
  }
  return result;
}

double OpDescriptor::doubleAttr(const char *name,
                                std::optional<double> fallback) const {
  const json *value = findAttr(*this, name, !fallback);
  if (!value)
    return *fallback;
  std::optional<double> number = jsonNumber(*value);
  if (!number)
    wrongType(name, "a number");
  return *number;
}

void OpDescriptor::expectOperands(size_t count) const {
  if (operands.size() != count)
    throw OpError(fmt::format("the descriptor has {} operands, the op takes {}",
                              operands.size(), count));
}

void parseDescriptor(const char *text, OpDescriptor &desc) {
  if (!text)
    throw OpError("the descriptor is NULL");
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded())
    throw OpError("the descriptor is not valid JSON");
  if (!root.is_object())
    throw OpError("the descriptor is not a JSON object");
  if (auto op = root.find("op"); op != root.end() && op->is_string())
    desc.op = op->get<std::string>();
  else
    throw OpError("the descriptor has no \"op\" string");
  if (auto loc = root.find("loc"); loc != root.end() && loc->is_string())
    desc.loc = loc->get<std::string>();
  auto operands = root.find("operands");
  if (operands == root.end() || !operands->is_array())
    throw OpError("the descriptor has no \"operands\" list");
  for (size_t i = 0; i < operands->size(); ++i)
    desc.operands.push_back(
        parseTensorType((*operands)[i], fmt::format("operand {}", i)));
  auto result = root.find("result");
  if (result == root.end())
    throw OpError("the descriptor has no \"result\"");
  desc.result = parseTensorType(*result, "the result");
  if (auto more = root.find("more_results"); more != root.end()) {
    if (!more->is_array())
      throw OpError("the descriptor's \"more_results\" is not a list");
    for (size_t i = 0; i < more->size(); ++i)
      desc.moreResults.push_back(
          parseTensorType((*more)[i], fmt::format("result {}", i + 1)));
  }
  if (auto attrs = root.find("attrs"); attrs != root.end()) {
    if (!attrs->is_object())
      throw OpError("the descriptor's \"attrs\" is not an object");
    desc.attrs = std::move(*attrs);
  }
}

} // namespace tessel::runtime
