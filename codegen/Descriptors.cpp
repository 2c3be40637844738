//===- Descriptors.cpp - what the runtime is told about each op -----------===//

#include "codegen/Descriptors.h"

#include "passes/Pipelining.h"

#include "dialect/MeshConversion.h"
#include "dialect/SourceLocations.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace mlir::tessel;
namespace json = llvm::json;

namespace {

constexpr StringLiteral kGlobalTypeAttr = "tessel.global_type";
constexpr StringLiteral kNameAttr = "tessel.name";

std::string elementTypeName(Type type) {
  std::string name;
  llvm::raw_string_ostream os(name);
  type.print(os);
  return name;
}

/// A number as JSON, which has no infinities (max pooling pads with -inf)
/// nor NaN: those are spelled "inf", "-inf" and "nan".
json::Value describeNumber(double value) {
  if (std::isnan(value))
    return "nan";
  if (std::isinf(value))
    return value > 0 ? "inf" : "-inf";
  return value;
}

/// An integer as the runtime reads it: signed, but an i1 as 0 or 1 (its
/// only bit set is -1 when read as signed).
json::Value describeInteger(const APInt &value) {
  if (value.getBitWidth() == 1)
    return static_cast<int64_t>(value.getZExtValue());
  return value.getSExtValue();
}

/// Converts an attribute to the JSON the runtime reads: strings, numbers and
/// lists of them; tessel's enumerations by their spelling.
json::Value describeAttribute(Attribute attr) {
  if (auto string = dyn_cast<StringAttr>(attr))
    return string.getValue().str();
  if (auto integer = dyn_cast<IntegerAttr>(attr))
    return describeInteger(integer.getValue());
  if (auto real = dyn_cast<FloatAttr>(attr))
    return describeNumber(real.getValueAsDouble());
  if (auto unit = dyn_cast<UnitAttr>(attr))
    return true;
  if (auto array = dyn_cast<DenseI64ArrayAttr>(attr)) {
    json::Array values;
    for (int64_t value : array.asArrayRef())
      values.push_back(value);
    return values;
  }
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    json::Array values;
    for (Attribute element : array)
      values.push_back(describeAttribute(element));
    return values;
  }
  if (auto dense = dyn_cast<DenseElementsAttr>(attr)) {
    json::Array values;
    if (isa<FloatType>(dense.getElementType()))
      for (APFloat value : dense.getValues<APFloat>())
        values.push_back(describeNumber(value.convertToDouble()));
    else
      for (APInt value : dense.getValues<APInt>())
        values.push_back(describeInteger(value));
    return values;
  }
  if (auto type = dyn_cast<TypeAttr>(attr)) {
    if (auto tensor = dyn_cast<NamedTensorType>(type.getValue()))
      return describeTensor(tensor);
  }
  std::string printed;
  llvm::raw_string_ostream os(printed);
  attr.print(os);
  return printed;
}

json::Object describeLayout(NamedTensorType type) {
  json::Object layout;
  if (LayoutAttr attr = type.getLayout())
    for (auto [dim, axes] : llvm::zip(attr.getDims(), attr.getAxes()))
      layout[dim.getValue()] = describeAttribute(axes);
  return layout;
}

/// Describes one argument or result: its name, global and local types and
/// layout. `global` is null outside partitioned programs, where the local
/// type is the global one.
json::Object describeValue(StringRef name, NamedTensorType local,
                           TypeAttr global, StringAttr role = {}) {
  NamedTensorType globalType =
      global ? cast<NamedTensorType>(global.getValue()) : local;
  json::Object value{{"name", name.str()},
                     {"global", describeTensor(globalType)},
                     {"local", describeTensor(local)},
                     {"layout", describeLayout(globalType)}};
  // What a trained tensor is (parameter, buffer, optimizer_state); data
  // arguments have no role.
  if (role)
    value["role"] = role.getValue().str();
  return value;
}

json::Object describeAttributes(Operation *op);

/// The body of a tessel.fused op as the runtime reads it: one entry per op
/// with the op's name, its arguments as value numbers (the fused op's
/// inputs first, then each entry's result in order), its result type and
/// attributes; a splat constant's value is one number. The last entry is
/// the fused result, or, where the body ends in a sum, the value summed
/// (the sum is the op's `sum_of` attribute, describeAttributes). The
/// numbers of the values of its other results go to `outputs`.
json::Array describeFusedBody(FusedOp fused, json::Array &outputs) {
  Block &body = fused.getBody().front();
  ReduceOp sum = getFusedSum(fused);
  llvm::DenseMap<Value, int64_t> numbers;
  for (BlockArgument argument : body.getArguments())
    numbers[argument] = argument.getArgNumber();
  int64_t next = body.getNumArguments();
  json::Array entries;
  for (Operation &op : body.without_terminator()) {
    if (&op == sum.getOperation())
      continue;
    json::Array args;
    for (Value operand : op.getOperands())
      args.push_back(numbers.lookup(operand));
    json::Object attrs = describeAttributes(&op);
    // A splat constant's value as one number, not one per element.
    if (auto constant = dyn_cast<ConstantOp>(op))
      if (auto dense = dyn_cast<DenseElementsAttr>(constant.getValue()))
        attrs["value"] = describeAttribute(dense.getSplatValue<Attribute>());
    entries.push_back(json::Object{
        {"op", op.getName().getStringRef().str()},
        {"args", std::move(args)},
        {"result",
         describeTensor(cast<NamedTensorType>(op.getResult(0).getType()))},
        {"attrs", std::move(attrs)}});
    numbers[op.getResult(0)] = next++;
  }
  // A copy of a value as an entry of its own: max(x, x), which is x for
  // every float, NaN included.
  auto copyOf = [&](Value value) {
    entries.push_back(json::Object{
        {"op", "tessel.max"},
        {"args", json::Array{numbers.lookup(value), numbers.lookup(value)}},
        {"result", describeTensor(cast<NamedTensorType>(value.getType()))},
        {"attrs", json::Object{}}});
    return next++;
  };
  // The other results' values are entries of the body, each an op's own
  // (an input, a constant or the first result's value yielded again is
  // copied into one).
  ValueRange yielded = cast<YieldOp>(body.getTerminator()).getValues();
  Value first = sum ? sum.getInput() : yielded.front();
  for (Value value : yielded.drop_front()) {
    bool isEntry = isa<OpResult>(value) && value != first &&
                   !value.getDefiningOp<ConstantOp>();
    outputs.push_back(isEntry ? numbers.lookup(value) : copyOf(value));
  }
  // The first result's value is the last entry's (the passes build it so);
  // a body yielding an earlier value or an input gets a copy of it as its
  // last entry, so that the runtime's rule holds for any valid fused op.
  if (numbers.lookup(first) != next - 1 || entries.empty())
    copyOf(first);
  return entries;
}

/// An op's attributes as the runtime reads them: each by name, and
/// enumerations (stored as integers) by their spelling.
json::Object describeAttributes(Operation *op) {
  json::Object attrs;
  for (NamedAttribute attr : op->getAttrs())
    attrs[attr.getName().getValue()] = describeAttribute(attr.getValue());
  llvm::TypeSwitch<Operation *>(op)
      .Case([&](ReduceOp reduce) {
        attrs["kind"] = stringifyReduceKind(reduce.getKind()).str();
      })
      .Case([&](CompareOp compare) {
        attrs["kind"] = stringifyCompareKind(compare.getKind()).str();
      })
      .Case<PoolOp, PoolBackwardOp>([&](auto pool) {
        attrs["kind"] = stringifyPoolKind(pool.getKind()).str();
      })
      .Case([&](ParameterOp parameter) {
        attrs["init"] = stringifyInitKind(parameter.getInit()).str();
        // A block of a partitioned parameter: the runtime needs the global
        // sizes and the axes of each split to find the rank's elements.
        if (std::optional<NamedTensorType> global = parameter.getGlobalType()) {
          json::Object described = describeTensor(*global);
          described["layout"] = describeLayout(*global);
          attrs["global_type"] = std::move(described);
        }
      })
      .Case([&](DropoutOp dropout) {
        // A block of a split tensor: the runtime finds each element's
        // global index from the global sizes and the splits.
        if (std::optional<NamedTensorType> global = dropout.getGlobalType()) {
          json::Object described = describeTensor(*global);
          described["layout"] = describeLayout(*global);
          attrs["global_type"] = std::move(described);
        }
      })
      .Case([&](FusedOp fused) {
        json::Array outputs;
        attrs["body"] = describeFusedBody(fused, outputs);
        if (!outputs.empty())
          attrs["outputs"] = std::move(outputs);
        // The type of the value summed, whose elements the kernel walks,
        // and whether the sums are means.
        if (ReduceOp sum = getFusedSum(fused)) {
          attrs["sum_of"] =
              describeTensor(cast<NamedTensorType>(sum.getInput().getType()));
          attrs["sum_kind"] = stringifyReduceKind(sum.getKind()).str();
        }
      })
      .Case<AllReduceOp, ReduceScatterOp>([&](auto collective) {
        attrs["kind"] = stringifyCollectiveKind(collective.getKind()).str();
      });
  return attrs;
}

} // namespace

std::string mlir::tessel::compiledFunctionSymbol(StringRef functionName) {
  return ("tessel_fn_" + functionName).str();
}

json::Object mlir::tessel::describeTensor(NamedTensorType type) {
  json::Array dims, shape;
  for (StringAttr dim : type.getDimNames())
    dims.push_back(dim.getValue().str());
  for (int64_t size : type.getShape())
    shape.push_back(size);
  return json::Object{{"dims", std::move(dims)},
                      {"shape", std::move(shape)},
                      {"type", elementTypeName(type.getElementType())}};
}

json::Object mlir::tessel::describeOp(Operation *op) {
  json::Array operands;
  for (Value operand : op->getOperands())
    operands.push_back(
        describeTensor(cast<NamedTensorType>(operand.getType())));
  json::Object described{{"op", op->getName().getStringRef().str()},
                         {"loc", describeLocation(op->getLoc())},
                         {"operands", std::move(operands)},
                         {"result", describeTensor(cast<NamedTensorType>(
                                        op->getResult(0).getType()))},
                         {"attrs", describeAttributes(op)}};
  // A fused op's results after the first, whose buffers follow the
  // operands' in the call (program.h).
  if (op->getNumResults() > 1) {
    json::Array more;
    for (Value result : op->getResults().drop_front())
      more.push_back(describeTensor(cast<NamedTensorType>(result.getType())));
    described["more_results"] = std::move(more);
  }
  return described;
}

json::Object mlir::tessel::describeProgram(ModuleOp module) {
  json::Array axes, sizes;
  if (auto mesh = module->getAttrOfType<MeshAttr>("tessel.mesh")) {
    for (StringAttr axis : mesh.getAxisNames())
      axes.push_back(axis.getValue().str());
    for (int64_t size : mesh.getAxisSizes())
      sizes.push_back(size);
  }
  json::Array functions;
  for (auto func : module.getOps<func::FuncOp>()) {
    json::Array arguments, results;
    for (unsigned i = 0; i < func.getNumArguments(); ++i) {
      auto name = func.getArgAttrOfType<StringAttr>(i, kNameAttr);
      arguments.push_back(
          describeValue(name ? name.getValue() : StringRef(),
                        cast<NamedTensorType>(func.getArgumentTypes()[i]),
                        func.getArgAttrOfType<TypeAttr>(i, kGlobalTypeAttr),
                        func.getArgAttrOfType<StringAttr>(i, kRoleAttrName)));
    }
    for (unsigned i = 0; i < func.getNumResults(); ++i) {
      auto name = func.getResultAttrOfType<StringAttr>(i, kNameAttr);
      results.push_back(describeValue(
          name ? name.getValue() : StringRef(),
          cast<NamedTensorType>(func.getResultTypes()[i]),
          func.getResultAttrOfType<TypeAttr>(i, kGlobalTypeAttr)));
    }
    functions.push_back(
        json::Object{{"name", func.getSymName().str()},
                     {"symbol", compiledFunctionSymbol(func.getSymName())},
                     {"arguments", std::move(arguments)},
                     {"results", std::move(results)}});
  }
  json::Object program{{"mesh", json::Object{{"axes", std::move(axes)},
                                               {"sizes", std::move(sizes)}}},
                       {"functions", std::move(functions)}};
  // A pipelined step: how the driver schedules its stages' functions
  // (docs/pipeline.md).
  if (auto pipeline = module->getAttrOfType<DictionaryAttr>(
          TesselDialect::kPipelineAttrName)) {
    json::Array stages;
    int64_t numStages = cast<IntegerAttr>(pipeline.get("stages")).getInt();
    for (int64_t stage = 0; stage < numStages; ++stage) {
      json::Object functionsOfStage;
      for (const char *kind : {"init", "forward", "backward", "apply"})
        functionsOfStage[kind] = stageFunctionName(stage, kind);
      // Forward only, on held-out data; absent where the model's evaluate
      // could not be cut into these stages.
      if (module.lookupSymbol(stageFunctionName(stage, "evaluate")))
        functionsOfStage["evaluate"] = stageFunctionName(stage, "evaluate");
      stages.push_back(std::move(functionsOfStage));
    }
    program["pipeline"] = json::Object{
        {"axis", cast<StringAttr>(pipeline.get("axis")).getValue().str()},
        {"microbatches",
         cast<IntegerAttr>(pipeline.get("microbatches")).getInt()},
        {"schedule",
         cast<StringAttr>(pipeline.get("schedule")).getValue().str()},
        {"remat", cast<BoolAttr>(pipeline.get("remat")).getValue()},
        {"batch_dim",
         cast<StringAttr>(pipeline.get("batch_dim")).getValue().str()},
        {"stages", std::move(stages)}};
  }
  return program;
}
