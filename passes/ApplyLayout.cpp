//===- ApplyLayout.cpp - give every tensor its layout on the mesh ---------===//
//
// Implements tessel-apply-layout: reads the user's layout, records its mesh
// on the module, and rewrites the type of every function argument and op
// result to carry the #tessel.layout that the rules and overrides give it.
//
//===----------------------------------------------------------------------===//

#include "passes/Passes.h"

#include "dialect/MeshConversion.h"
#include "layouts/LayoutFile.h"
#include "layouts/Reshape.h"
#include "layouts/Sharding.h"

#include "llvm/ADT/StringSet.h"

namespace mlir::tessel {
#define GEN_PASS_DEF_TESSELAPPLYLAYOUT
#include "passes/Passes.h.inc"
} // namespace mlir::tessel

using namespace mlir;
using namespace mlir::tessel;
namespace layout = ::tessel::layout;

namespace {

/// Returns an MLIR location for a known place in the layout file, so that
/// diagnostics print as `layout.yaml:3:11: error: ...`.
Location locationOf(MLIRContext *context,
                    const layout::SourceLocation &source) {
  return FileLineColLoc::get(context, source.file, source.line,
                             std::max(source.column, 1));
}

/// Returns the location to report a value's errors at: its op, or for a
/// function argument, the argument itself.
Location locationOf(Value value) { return value.getLoc(); }

/// Returns whether `op` computes its result's dimension `dim` element by
/// element from the same dimension of its operands, so that a split of that
/// dimension in an operand can carry over to the result without
/// communication: element-wise ops, contractions (dimensions they keep),
/// reductions (kept dimensions), ops that work across other dimensions, and
/// softmax, whose split form needs only per-row scalars.
bool carriesSplitsThrough(Operation *op, StringRef dim) {
  auto partitionable = dyn_cast_or_null<PartitionableOpInterface>(op);
  if (!partitionable)
    return false;
  switch (partitionable.getPartitionRule()) {
  case PartitionRule::Elementwise:
  case PartitionRule::Contraction:
  case PartitionRule::Reduction:
    return true;
  case PartitionRule::Across:
    return isa<SoftmaxOp, LogSoftmaxOp>(op) ||
           !llvm::is_contained(partitionable.getDimsWorkedAcross(), dim);
  default:
    return false;
  }
}

/// Returns the axes that split the input dimension from which a reshape
/// carries its result dimension `dim` over without moving data
/// (layouts/Reshape.h), or none: hidden:512 over model gives heads, its
/// major part, the split over model.
SmallVector<StringAttr> reshapeSplitOf(ReshapeOp op, StringRef dim,
                                       const layout::Mesh &mesh) {
  NamedTensorType input = op.getInput().getType();
  NamedTensorType result = op.getType();
  if (!input.getLayout())
    return {};
  std::vector<int64_t> from(input.getShape().begin(), input.getShape().end());
  std::vector<int64_t> to(result.getShape().begin(), result.getShape().end());
  for (auto [i, name] : llvm::enumerate(input.getDimNames())) {
    SmallVector<StringAttr> axes = input.getLayout().getAxesOf(name.getValue());
    layout::AxisList names;
    for (StringAttr axis : axes)
      names.push_back(axis.str());
    if (!axes.empty() &&
        layout::splitSourceOfReshape(from, to, *result.getDimIndex(dim),
                                     layout::splitCount(mesh, names)) == i)
      return axes;
  }
  return {};
}

/// Returns the axes that split `dim` (of `size`) in an operand of the op
/// defining `value`, or none.
SmallVector<StringAttr> operandSplitOf(Value value, StringRef dim, int64_t size,
                                       const layout::Mesh &mesh) {
  Operation *op = value.getDefiningOp();
  if (auto reshape = dyn_cast_or_null<ReshapeOp>(op))
    return reshapeSplitOf(reshape, dim, mesh);
  if (!op || !carriesSplitsThrough(op, dim))
    return {};
  for (Value operand : op->getOperands()) {
    auto type = dyn_cast<NamedTensorType>(operand.getType());
    if (!type || !type.getLayout())
      continue;
    std::optional<unsigned> position = type.getDimIndex(dim);
    if (!position || type.getShape()[*position] != size)
      continue;
    SmallVector<StringAttr> axes = type.getLayout().getAxesOf(dim);
    if (!axes.empty())
      return axes;
  }
  return {};
}

struct ApplyLayoutPass
    : mlir::tessel::impl::TesselApplyLayoutBase<ApplyLayoutPass> {
  using TesselApplyLayoutBase::TesselApplyLayoutBase;

  void runOnOperation() final;

private:
  /// Reads the layout from the file or the strings; reports its diagnostics.
  std::optional<layout::LayoutSpec> readLayout();

  /// Gives `value` the layout the spec decides for it; returns failure
  /// after an error naming the tensor, the dimension and the rule.
  LogicalResult assignLayout(Value value, const layout::LayoutSpec &spec,
                             const layout::Mesh &mesh);

  /// The names of every tensor, for checking overrides.
  llvm::StringMap<SmallVector<NamedTensorType>> namedTensors;
  /// Every dimension name of every tensor, for the unused-rule warning.
  llvm::StringSet<> allDims;
  /// The split errors already reported: one bad rule makes every tensor
  /// with that dimension fail the same way, and one error per cause says
  /// all there is to say.
  llvm::StringSet<> reportedSplitErrors;
};

std::optional<layout::LayoutSpec> ApplyLayoutPass::readLayout() {
  MLIRContext *context = &getContext();
  std::vector<layout::Diagnostic> diagnostics;
  std::optional<layout::LayoutSpec> spec;
  // Rules go with a mesh string; a layout file has its own. Either way
  // rules beside them would be dropped without a word.
  if (!rulesSpec.empty() && meshSpec.empty()) {
    getOperation().emitError()
        << "tessel-apply-layout: rules='" << rulesSpec.getValue()
        << "' needs mesh=... to split over"
        << (layoutFile.empty() ? "" : "; a layout-file has rules of its own");
    return std::nullopt;
  }
  if (!layoutFile.empty()) {
    spec = layout::parseLayoutFile(layoutFile, diagnostics);
  } else if (!meshSpec.empty()) {
    spec = layout::parseLayoutStrings(meshSpec, rulesSpec, diagnostics);
  } else {
    getOperation().emitError()
        << "tessel-apply-layout needs a layout: pass layout-file=FILE or "
           "mesh=... rules=...";
    return std::nullopt;
  }
  for (const layout::Diagnostic &diagnostic : diagnostics) {
    // Without a line (a missing file, the command line) the message names
    // its source itself and is reported at the module.
    bool located = diagnostic.location.line > 0;
    Location location = located ? locationOf(context, diagnostic.location)
                                : getOperation().getLoc();
    std::string message =
        located ? diagnostic.message
                : diagnostic.location.file + ": " + diagnostic.message;
    if (diagnostic.severity == layout::Diagnostic::Warning)
      emitWarning(location) << message;
    else
      emitError(location) << message;
  }
  return spec;
}

LogicalResult ApplyLayoutPass::assignLayout(Value value,
                                            const layout::LayoutSpec &spec,
                                            const layout::Mesh &mesh) {
  auto type = dyn_cast<NamedTensorType>(value.getType());
  if (!type)
    return success();
  StringRef name = getTensorName(value);
  if (!name.empty())
    namedTensors[name].push_back(type);
  // A parameter's optimizer state ("w1.adam_m", "w1.momentum") follows an
  // override of its parameter ("w1"), so that a layout that shards a
  // parameter (ZeRO) shards its state with it.
  StringRef layoutName = name;
  auto hasOverride = [&](StringRef tensor) {
    return llvm::any_of(spec.overrides, [&](const layout::TensorOverride &o) {
      return o.tensor == tensor;
    });
  };
  if (!hasOverride(name) && name.contains('.') &&
      hasOverride(name.rsplit('.').first))
    layoutName = name.rsplit('.').first;

  layout::TensorLayout tensorLayout;
  SmallVector<StringAttr> splitDims;
  SmallVector<ArrayAttr> splitAxes;
  Builder builder(&getContext());
  // Dimensions no rule or override speaks of take the split their operand
  // has (an override's split, say of the logits' vocabulary, follows the
  // data into the ops computed from it, such as the softmax of the
  // cross-entropy's gradient; a reshape's split follows into the dimension
  // it carries over to), when its axes are not taken by a dimension the
  // rules split.
  llvm::StringSet<> axesInUse;
  for (StringAttr dim : type.getDimNames())
    for (const std::string &axis : spec.axesFor(layoutName, dim.getValue()))
      axesInUse.insert(axis);
  for (auto [dim, size] : llvm::zip(type.getDimNames(), type.getShape())) {
    allDims.insert(dim.getValue());
    layout::AxisList axes = spec.axesFor(layoutName, dim.getValue());
    if (!spec.ruleFor(layoutName, dim.getValue())) {
      SmallVector<StringAttr> inherited =
          operandSplitOf(value, dim.getValue(), size, mesh);
      if (llvm::none_of(inherited, [&](StringAttr axis) {
            return axesInUse.contains(axis.getValue());
          }))
        for (StringAttr axis : inherited) {
          axes.push_back(axis.str());
          axesInUse.insert(axis.getValue());
        }
    }
    tensorLayout.dims.push_back(dim.str());
    tensorLayout.shape.push_back(size);
    tensorLayout.axes.push_back(axes);
    if (axes.empty())
      continue;
    splitDims.push_back(dim);
    SmallVector<Attribute> axisNames;
    for (const std::string &axis : axes)
      axisNames.push_back(builder.getStringAttr(axis));
    splitAxes.push_back(builder.getArrayAttr(axisNames));
  }

  std::string error;
  if (!layout::checkLayout(mesh, tensorLayout, error,
                           spec.padUneven || padUneven)) {
    if (!reportedSplitErrors.insert(error).second)
      return failure();
    InFlightDiagnostic diagnostic = emitError(locationOf(value));
    diagnostic << "tensor";
    if (!name.empty())
      diagnostic << " '" << name << "'";
    diagnostic << " " << type << ": " << error;
    if (StringRef(error).contains("does not divide"))
      diagnostic.attachNote()
          << "'pad_uneven: true' in the layout file (or --pad-uneven) pads "
             "the last blocks instead";
    for (StringAttr dim : splitDims) {
      const layout::DimRule *rule = spec.ruleFor(layoutName, dim.getValue());
      if (!rule)
        continue;
      if (rule->location.line > 0)
        diagnostic.attachNote(locationOf(&getContext(), rule->location))
            << "'" << dim.getValue() << "' is split by this rule";
      else
        diagnostic.attachNote()
            << "'" << dim.getValue() << "' is split by the rule '"
            << layout::formatRules({*rule}) << "' of " << rule->location.file;
    }
    return failure();
  }
  LayoutAttr layoutAttr;
  if (!splitDims.empty())
    layoutAttr = LayoutAttr::get(&getContext(), splitDims, splitAxes);
  value.setType(type.withLayout(layoutAttr));
  return success();
}

void ApplyLayoutPass::runOnOperation() {
  ModuleOp module = getOperation();
  std::optional<layout::LayoutSpec> spec = readLayout();
  if (!spec)
    return signalPassFailure();
  module->setAttr(TesselDialect::kMeshAttrName,
                  toMeshAttr(&getContext(), spec->mesh));

  bool failedAny = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    for (BlockArgument argument : func.getArguments())
      failedAny |= failed(assignLayout(argument, *spec, spec->mesh));
    func.walk([&](Operation *op) {
      for (Value result : op->getResults())
        failedAny |= failed(assignLayout(result, *spec, spec->mesh));
    });
    // State that goes round a training loop (tessel-autodiff's step returns
    // every parameter and optimizer state under its argument's name) is
    // returned with its argument's layout, so that the next step takes it
    // as it was given: an update computed from a gradient whose split came
    // from elsewhere (an override of the logits' vocabulary reaching the
    // gradient of an unsplit projection) would otherwise come back split.
    Operation *terminator = func.getBody().back().getTerminator();
    llvm::StringMap<Type> argumentTypes;
    for (auto [index, argument] : llvm::enumerate(func.getArguments()))
      if (auto name = func.getArgAttrOfType<StringAttr>(
              index, TesselDialect::kNameAttrName))
        argumentTypes[name.getValue()] = argument.getType();
    for (auto [index, returned] : llvm::enumerate(terminator->getOperands())) {
      auto name = func.getResultAttrOfType<StringAttr>(
          index, TesselDialect::kNameAttrName);
      if (!name || !argumentTypes.count(name.getValue()))
        continue;
      // Only a value computed for this result alone: retyping an argument
      // would change the function's inputs, and a value returned twice
      // would take the last name's layout.
      if (isa<BlockArgument>(returned) ||
          llvm::count(terminator->getOperands(), returned) != 1)
        continue;
      Type argumentType = argumentTypes.lookup(name.getValue());
      if (returned.getType() != argumentType &&
          cast<NamedTensorType>(returned.getType()).withLayout({}) ==
              cast<NamedTensorType>(argumentType).withLayout({}))
        returned.setType(argumentType);
    }
    // The signature follows the new argument and returned types.
    func.setType(FunctionType::get(&getContext(),
                                   func.getBody().getArgumentTypes(),
                                   terminator->getOperandTypes()));
  }

  // Overrides must name tensors and dimensions that exist.
  for (const layout::TensorOverride &override : spec->overrides) {
    auto tensors = namedTensors.find(override.tensor);
    if (tensors == namedTensors.end()) {
      emitError(locationOf(&getContext(), override.location))
          << "override names tensor '" << override.tensor
          << "', which no argument, parameter or named op defines";
      failedAny = true;
      continue;
    }
    for (const layout::DimRule &rule : override.rules)
      if (llvm::none_of(tensors->second, [&](NamedTensorType type) {
            return type.hasDim(rule.dim);
          })) {
        emitError(locationOf(&getContext(), rule.location))
            << "override for tensor '" << override.tensor
            << "' names dimension '" << rule.dim << "', which it does not have";
        failedAny = true;
      }
  }
  // A rule that splits nothing is usually a misspelt dimension name.
  for (const layout::DimRule &rule : spec->rules)
    if (!rule.axes.empty() && !allDims.contains(rule.dim))
      emitWarning(locationOf(&getContext(), rule.location))
          << "rule for dimension '" << rule.dim << "' matches no tensor";
  if (failedAny)
    signalPassFailure();
}

} // namespace
