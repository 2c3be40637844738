//===- Metadata.cpp - The program's description of itself -----------------===//

#include "driver/Metadata.h"

#include "layouts/StrictJson.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace tessel::driver {

using nlohmann::json;
using runtime::OpError;

const ValueSpec *FunctionSpec::findArgument(const std::string &name) const {
  for (const ValueSpec &argument : arguments)
    if (argument.name == name)
      return &argument;
  return nullptr;
}

const FunctionSpec *
ProgramMetadata::findFunction(const std::string &name) const {
  for (const FunctionSpec &function : functions)
    if (function.name == name)
      return &function;
  return nullptr;
}

std::string describeMesh(const layout::Mesh &mesh) {
  std::vector<std::string> parts;
  for (unsigned i = 0; i < mesh.numAxes(); ++i)
    parts.push_back(
        fmt::format("{}:{}", mesh.axisNames()[i], mesh.axisSizes()[i]));
  return parts.empty() ? "with no axes"
                       : fmt::format("{}", fmt::join(parts, " x "));
}

namespace {

const json &field(const json &object, const char *key,
                  const std::string &what) {
  auto it = object.find(key);
  if (it == object.end())
    throw OpError(fmt::format("{} has no \"{}\"", what, key));
  return *it;
}

template <typename T>
T get(const json &object, const char *key, const std::string &what) {
  const json &value = field(object, key, what);
  try {
    return value.get<T>();
  } catch (const json::exception &) {
    throw OpError(fmt::format("{}: \"{}\" has the wrong type", what, key));
  }
}

/// A whole number of int64_t's range (a float, 2.9e98 or 1.5, is refused
/// rather than cast).
int64_t wholeNumber(const json &value, const char *key,
                    const std::string &what) {
  std::optional<int64_t> number = layout::int64Value(value);
  if (!number)
    throw OpError(fmt::format("{}: \"{}\" holds {}, not a whole number "
                              "from -2^63 to 2^63 - 1",
                              what, key, value.dump()));
  return *number;
}

int64_t getInteger(const json &object, const char *key,
                   const std::string &what) {
  return wholeNumber(field(object, key, what), key, what);
}

std::vector<int64_t> getIntegerList(const json &object, const char *key,
                                    const std::string &what) {
  const json &list = field(object, key, what);
  if (!list.is_array())
    throw OpError(fmt::format("{}: \"{}\" is not a list", what, key));
  std::vector<int64_t> values;
  for (const json &value : list)
    values.push_back(wholeNumber(value, key, what));
  return values;
}

ValueSpec parseValue(const json &value, const layout::Mesh &mesh,
                     const std::string &what) {
  if (!value.is_object())
    throw OpError(fmt::format("{} is not an object", what));
  ValueSpec spec;
  spec.name = get<std::string>(value, "name", what);
  std::string named = fmt::format("{} '{}'", what, spec.name);
  if (value.contains("role"))
    spec.role = get<std::string>(value, "role", named);
  spec.global =
      runtime::parseTensorType(value.at("global"), named + " (global)");
  spec.local = runtime::parseTensorType(value.at("local"), named + " (local)");
  spec.axes.assign(spec.global.dims.size(), {});
  auto layoutIt = value.find("layout");
  if (layoutIt != value.end() && !layoutIt->is_null()) {
    if (!layoutIt->is_object())
      throw OpError(fmt::format("{}: \"layout\" is not an object", named));
    for (const auto &[dim, axes] : layoutIt->items()) {
      int index = spec.global.dimIndex(dim, named.c_str());
      if (!axes.is_array())
        throw OpError(fmt::format(
            "{}: the layout of '{}' is not a list of axes", named, dim));
      for (const json &axis : axes)
        spec.axes[index].push_back(axis.get<std::string>());
    }
  }
  std::string error;
  // The compiler decided the splits; one that does not divide is padded.
  if (!layout::checkLayout(mesh, spec.tensorLayout(), error,
                           /*padUneven=*/true))
    throw OpError(fmt::format("{}: {}", named, error));
  if (spec.local.dims != spec.global.dims ||
      layout::localShape(mesh, spec.tensorLayout()) != spec.local.shape ||
      spec.local.type != spec.global.type)
    throw OpError(fmt::format("{}: the local type {} is not the block of {} "
                              "that its layout gives",
                              named, spec.local.str(), spec.global.str()));
  return spec;
}

PipelineSpec parsePipeline(const json &object,
                           const ProgramMetadata &metadata) {
  const std::string what = "\"pipeline\"";
  if (!object.is_object())
    throw OpError(fmt::format("{} is not an object", what));
  PipelineSpec spec;
  spec.axis = get<std::string>(object, "axis", what);
  if (!metadata.mesh.axisIndex(spec.axis))
    throw OpError(fmt::format("{}: the axis '{}' is not an axis of the mesh "
                              "{}",
                              what, spec.axis, describeMesh(metadata.mesh)));
  spec.microbatches = getInteger(object, "microbatches", what);
  if (spec.microbatches < 1)
    throw OpError(fmt::format("{}: \"microbatches\" is {}; it must be at "
                              "least 1",
                              what, spec.microbatches));
  spec.schedule = get<std::string>(object, "schedule", what);
  if (spec.schedule != "gpipe" && spec.schedule != "1f1b")
    throw OpError(fmt::format("{}: the schedule '{}' is neither 'gpipe' nor "
                              "'1f1b'",
                              what, spec.schedule));
  spec.remat = get<bool>(object, "remat", what);
  spec.batchDim = get<std::string>(object, "batch_dim", what);
  auto stages = object.find("stages");
  if (stages == object.end() || !stages->is_array())
    throw OpError(fmt::format("{} has no list \"stages\"", what));
  int64_t count = metadata.mesh.axisSize(spec.axis);
  if (static_cast<int64_t>(stages->size()) != count)
    throw OpError(fmt::format("{} has {} stages, but the axis '{}' has size "
                              "{}",
                              what, stages->size(), spec.axis, count));
  for (size_t s = 0; s < stages->size(); ++s) {
    std::string stage = fmt::format("{}: stage {}", what, s);
    const json &entry = (*stages)[s];
    if (!entry.is_object())
      throw OpError(fmt::format("{} is not an object", stage));
    PipelineStageSpec functions{get<std::string>(entry, "init", stage),
                                get<std::string>(entry, "forward", stage),
                                get<std::string>(entry, "backward", stage),
                                get<std::string>(entry, "apply", stage)};
    if (entry.contains("evaluate"))
      functions.evaluate = get<std::string>(entry, "evaluate", stage);
    for (const std::string *name :
         {&functions.init, &functions.forward, &functions.backward,
          &functions.apply, &functions.evaluate})
      if (!name->empty() && !metadata.findFunction(*name))
        throw OpError(fmt::format("{}: the function '{}' is not among the "
                                  "program's functions",
                                  stage, *name));
    spec.stages.push_back(std::move(functions));
  }
  return spec;
}

} // namespace

std::optional<ProgramMetadata> parseMetadata(const char *text,
                                             std::string &error) {
  try {
    json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (root.is_discarded() || !root.is_object())
      throw OpError("it is not a JSON object");
    ProgramMetadata metadata;
    const json &mesh = root.at("mesh");
    std::optional<layout::Mesh> parsedMesh = layout::Mesh::create(
        get<std::vector<std::string>>(mesh, "axes", "the mesh"),
        getIntegerList(mesh, "sizes", "the mesh"), error);
    if (!parsedMesh)
      throw OpError(fmt::format("the mesh: {}", error));
    metadata.mesh = *parsedMesh;
    for (const json &function : root.at("functions")) {
      FunctionSpec spec;
      spec.name = get<std::string>(function, "name", "a function");
      std::string what = fmt::format("function '{}'", spec.name);
      spec.symbol = get<std::string>(function, "symbol", what);
      for (const json &argument : function.at("arguments"))
        spec.arguments.push_back(
            parseValue(argument, metadata.mesh, what + ": argument"));
      for (const json &result : function.at("results"))
        spec.results.push_back(
            parseValue(result, metadata.mesh, what + ": result"));
      metadata.functions.push_back(std::move(spec));
    }
    if (auto pipeline = root.find("pipeline"); pipeline != root.end())
      metadata.pipeline = parsePipeline(*pipeline, metadata);
    return metadata;
  } catch (const OpError &failure) {
    error = fmt::format("the program's metadata: {}", failure.what());
  } catch (const std::exception &failure) {
    error = fmt::format("the program's metadata: {}", failure.what());
  }
  return std::nullopt;
}

} // namespace tessel::driver
