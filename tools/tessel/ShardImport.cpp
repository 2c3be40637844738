//===- ShardImport.cpp - upstream shard-annotated MLIR as a tessel model --===//
//
// How an upstream function becomes a tessel function and a layout:
//
//   - Dimensions get names. Every tensor dimension and every loop of a
//     linalg.generic is a slot; an indexing map joins an operand's slots to
//     the loops it reads them with, a result's slots to its init's, a
//     `shard.shard` result's to its source's. Each class of joined slots is
//     one named dimension: the name an argument gives it (`tessel.dims`, as
//     `tessel export-shard` writes) or a generated `d0`, `d1`, ... So the
//     dimension a matmul contracts has one name in both operands.
//   - Named linalg ops (matmul, batch_matmul, transpose, broadcast, the
//     element-wise ones, reduce) are generalized first; every
//     linalg.generic then becomes tessel ops: a reduction whose body is
//     `acc + a * b * ...` of its inputs is a tessel.einsum; another
//     reduction `combine(acc, f(inputs))` is f's element-wise ops and a
//     tessel.reduce (sum, prod, max, min); a parallel generic is its body's
//     element-wise ops, broadcast by name, then a transpose or broadcast
//     into the result's dimension order. `linalg.index` is a tessel.iota,
//     and `index == ids` (upstream's one-hot idiom) a tessel.one_hot. A
//     reduce sum scaled by 1/count is a mean, max(x, 0) a relu, and the sum
//     over v of (index_v == ids ? table : 0) a tessel.gather.
//   - Arguments with `tessel.parameter = {name, init, scale, seed}` become
//     tessel.parameter ops; the others stay arguments (named by their
//     `tessel.name`, or argN).
//   - A value's sharding is its first annotation (`shard.shard`, for its
//     producer or its users alike); an annotation with another split is
//     where upstream reshards, and becomes a copy of the value (a
//     tessel.cast to its own type) with that split, read by what reads the
//     annotation. A dimension's rule is the split most of its annotated
//     tensors have; tensors that differ get overrides (ops are named t0,
//     t1, ... for them). The grid's axes are named by its `tessel.axes` or
//     axis0, axis1, ...
//
// Anything else (another op, a sharding with halos or offsets, a dimension
// that would need two names in one tensor) is an error at the upstream op.
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/ShardImport.h"

#include "dialect/TesselDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/EquivalenceClasses.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cmath>
#include <map>

using namespace mlir;
using namespace mlir::tessel;

namespace {

/// Spells a YAML key or scalar, quoted when it is more than a plain name.
std::string yamlName(const std::string &name) {
  bool plain = !name.empty() && llvm::all_of(name, [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
  });
  return plain ? name : fmt::format("\"{}\"", name);
}

std::string yamlAxes(const ImportedLayout::Axes &axes) {
  if (axes.size() == 1)
    return yamlName(axes.front());
  std::vector<std::string> names;
  for (const std::string &axis : axes)
    names.push_back(yamlName(axis));
  return fmt::format("[{}]", fmt::join(names, ", "));
}

} // namespace

std::string ImportedLayout::yaml(const std::string &header) const {
  std::string text = header;
  std::vector<std::string> axes;
  for (const auto &[name, size] : mesh)
    axes.push_back(fmt::format("{}: {}", yamlName(name), size));
  text += fmt::format("mesh: {{{}}}\n", fmt::join(axes, ", "));
  if (rules.empty()) {
    text += "layout: {}\n";
  } else {
    text += "layout:\n";
    for (const auto &[dim, split] : rules)
      text += fmt::format("  {}: {}\n", yamlName(dim), yamlAxes(split));
  }
  if (!overrides.empty()) {
    text += "overrides:\n";
    for (const auto &[tensor, dims] : overrides) {
      std::vector<std::string> entries;
      for (const auto &[dim, split] : dims)
        entries.push_back(fmt::format("{}: {}", yamlName(dim),
                                      split.empty() ? "[]" : yamlAxes(split)));
      text += fmt::format("  {}: {{{}}}\n", yamlName(tensor),
                          fmt::join(entries, ", "));
    }
  }
  return text;
}

namespace {

/// The grid axes that split each dimension of one value.
using Split = SmallVector<SmallVector<int16_t>>;

/// Translates one upstream function (see the file comment).
class Importer {
public:
  Importer(ModuleOp upstream, func::FuncOp function, ModuleOp target)
      : upstream(upstream), function(function), target(target),
        ctx(target.getContext()), builder(ctx) {}

  FailureOr<ImportedLayout> run();

private:
  /// An error at `op` that names it as the program wrote it (a named
  /// linalg op by its name, not as the generic it became).
  InFlightDiagnostic fail(Operation *op) {
    auto named = writtenNames.find(op);
    return op->emitError() << "tessel import-shard: '"
                           << (named != writtenNames.end()
                                   ? named->second
                                   : op->getName().getStringRef().str())
                           << "' ";
  }
  /// After `op` joined dimensions: fails at it when a tensor now has one
  /// dimension twice.
  LogicalResult checkDistinct(Operation *op);

  // --- The grid ---
  LogicalResult readGrid();

  // --- Dimension names ---
  unsigned slotOf(Value value, unsigned dim);
  unsigned loopSlot(Operation *op, unsigned loop, int64_t size);
  LogicalResult join(unsigned a, unsigned b, Operation *at);
  LogicalResult collectSlots();
  LogicalResult nameDimensions();
  StringAttr nameOf(unsigned slot) const {
    return names.lookup(classes.getLeaderValue(slot));
  }

  // --- Types ---
  FailureOr<Type> elementType(Type upstreamType, Operation *at);
  FailureOr<NamedTensorType> typeOf(Value value, Operation *at);
  NamedTensorType scalarType(Type element) const;
  Location locationOf(Operation *op) const;

  // --- Values ---
  FailureOr<Value> lookup(Value value, Operation *at);
  Value constant(Attribute value, Type element, Location loc);
  FailureOr<Attribute> scalarConstant(Value value, Type element);

  // --- Ops ---
  LogicalResult emitArguments();
  LogicalResult emitOp(Operation *op);
  LogicalResult emitGeneric(linalg::GenericOp op);
  LogicalResult recordSharding(shard::ShardOp op);

  // --- Element-wise bodies of one generic ---
  struct Body {
    linalg::GenericOp op;
    /// Every loop's name and size; the result's dimensions come first in
    /// `order`, the other loops after, in loop order.
    SmallVector<StringAttr> loopNames;
    SmallVector<int64_t> loopSizes;
    SmallVector<StringAttr> order;
    /// The value the accumulator reads in a parallel generic; null in a
    /// reduction, whose body must read it only in its combining op.
    Value accumulator;
    DenseMap<Value, Value> translated;
    Location loc;
  };
  FailureOr<Value> translate(Body &body, Value value);
  NamedTensorType unionType(Body &body, ArrayRef<Value> values,
                            Type element) const;
  FailureOr<Value> translateOp(Body &body, Operation *op);
  FailureOr<Value> coerce(Body &body, Value value, NamedTensorType to);
  /// The tessel.gather a reduction's `element` spells as upstream's one-hot
  /// lookup (index_v == ids ? table : 0, summed over v), or null.
  FailureOr<Value> lookupOf(Body &body, Value element,
                            NamedTensorType resultType);

  // --- The layout ---
  std::string tensorName(Value value);
  ImportedLayout deriveLayout();

  ModuleOp upstream;
  func::FuncOp function;
  ModuleOp target;
  MLIRContext *ctx;
  OpBuilder builder;

  shard::GridOp grid;
  SmallVector<std::string> axisNames;

  DenseMap<Operation *, std::string> writtenNames;
  SmallVector<Value> slottedValues;
  llvm::EquivalenceClasses<unsigned> classes;
  DenseMap<std::pair<Value, unsigned>, unsigned> valueSlots;
  DenseMap<std::pair<Operation *, unsigned>, unsigned> loopSlots;
  SmallVector<int64_t> slotSizes;
  /// Names given by `tessel.dims` (slot -> name), then every leader's.
  DenseMap<unsigned, StringAttr> givenNames;
  DenseMap<unsigned, StringAttr> names;

  /// The upstream value -> its tessel value.
  DenseMap<Value, Value> values;
  /// Upstream values that are a linalg.fill of a scalar, and tensor.empty.
  DenseMap<Value, Attribute> fills;
  DenseMap<Value, Value> materializedFills;
  llvm::DenseSet<Value> empties;

  /// Each tessel value's sharding, in the order first annotated.
  llvm::MapVector<Value, Split> annotations;
  unsigned generatedNames = 0;
};

LogicalResult Importer::readGrid() {
  for (auto candidate : upstream.getOps<shard::GridOp>()) {
    if (grid)
      return candidate.emitError(
          "tessel import-shard: a second shard.grid; a tessel layout has one "
          "mesh");
    grid = candidate;
  }
  if (!grid)
    return function.emitError(
        "tessel import-shard: the module has no shard.grid");
  auto given = grid->getAttrOfType<ArrayAttr>("tessel.axes");
  if (given && given.size() != grid.getShape().size())
    return grid.emitError("tessel import-shard: 'tessel.axes' names ")
           << given.size() << " axes of a grid of rank "
           << grid.getShape().size();
  for (auto [index, size] : llvm::enumerate(grid.getShape())) {
    if (ShapedType::isDynamic(size) || size < 1)
      return grid.emitError("tessel import-shard: the grid's axis ")
             << index << " has no static size";
    auto name = given ? dyn_cast<StringAttr>(given[index]) : StringAttr();
    if (given && (!name || name.getValue().empty()))
      return grid.emitError(
          "tessel import-shard: 'tessel.axes' must be non-empty strings");
    axisNames.push_back(name ? name.str() : fmt::format("axis{}", index));
  }
  return success();
}

unsigned Importer::slotOf(Value value, unsigned dim) {
  auto [it, inserted] =
      valueSlots.try_emplace({value, dim}, (unsigned)slotSizes.size());
  if (inserted) {
    if (dim == 0)
      slottedValues.push_back(value);
    slotSizes.push_back(cast<ShapedType>(value.getType()).getDimSize(dim));
    classes.insert(it->second);
  }
  return it->second;
}

unsigned Importer::loopSlot(Operation *op, unsigned loop, int64_t size) {
  auto [it, inserted] =
      loopSlots.try_emplace({op, loop}, (unsigned)slotSizes.size());
  if (inserted) {
    slotSizes.push_back(size);
    classes.insert(it->second);
  }
  return it->second;
}

LogicalResult Importer::join(unsigned a, unsigned b, Operation *at) {
  int64_t sizeA = slotSizes[classes.getLeaderValue(a)];
  int64_t sizeB = slotSizes[classes.getLeaderValue(b)];
  if (sizeA != sizeB)
    return fail(at) << "makes one dimension of sizes " << sizeA << " and "
                    << sizeB;
  classes.unionSets(a, b);
  return success();
}

LogicalResult Importer::checkDistinct(Operation *op) {
  for (Value value : slottedValues) {
    auto type = cast<RankedTensorType>(value.getType());
    for (unsigned a = 0; a < type.getRank(); ++a)
      for (unsigned b = a + 1; b < type.getRank(); ++b)
        if (classes.isEquivalent(slotOf(value, a), slotOf(value, b)))
          return fail(op) << "makes dimensions " << a << " and " << b
                          << " of a " << type
                          << " one dimension along the dataflow; a tessel "
                             "tensor has each dimension name once (a tessel "
                             "program renames one of them, tessel.rename)";
  }
  return success();
}

LogicalResult Importer::collectSlots() {
  auto joinShapes = [&](Value a, Value b, Operation *at) -> LogicalResult {
    auto type = cast<RankedTensorType>(a.getType());
    for (unsigned dim = 0; dim < type.getRank(); ++dim)
      if (failed(join(slotOf(a, dim), slotOf(b, dim), at)))
        return failure();
    return success();
  };
  for (BlockArgument argument : function.getArguments()) {
    auto type = dyn_cast<RankedTensorType>(argument.getType());
    if (!type || !type.hasStaticShape())
      return function.emitError("tessel import-shard: argument ")
             << argument.getArgNumber() << " is not a tensor of static shape";
    for (unsigned dim = 0; dim < type.getRank(); ++dim)
      slotOf(argument, dim);
  }
  for (Operation &op : function.getBody().front()) {
    for (Value result : op.getResults())
      if (auto type = dyn_cast<RankedTensorType>(result.getType());
          type && !type.hasStaticShape())
        return op.emitError("tessel import-shard: only static shapes have a "
                            "tessel form");
    if (auto annotation = dyn_cast<shard::ShardOp>(op)) {
      if (failed(joinShapes(annotation.getResult(), annotation.getSrc(), &op)))
        return failure();
    } else if (auto fill = dyn_cast<linalg::FillOp>(op)) {
      if (failed(joinShapes(fill->getResult(0), fill.getOutputs()[0], &op)))
        return failure();
    } else if (auto generic = dyn_cast<linalg::GenericOp>(op)) {
      if (generic.getNumDpsInits() != 1 || generic->getNumResults() != 1)
        return fail(&op) << "has " << generic.getNumDpsInits()
                         << " outputs; tessel's ops have one result";
      SmallVector<int64_t> ranges = generic.getStaticLoopRanges();
      for (OpOperand &operand : generic->getOpOperands()) {
        AffineMap map = generic.getMatchingIndexingMap(&operand);
        if (!map.isProjectedPermutation(/*allowZeroInResults=*/false))
          return fail(&op) << "operand #" << operand.getOperandNumber()
                           << " is indexed by " << AffineMapAttr::get(map)
                           << ", not by loops (a permutation of some of them)";
        if (!isa<RankedTensorType>(operand.get().getType()))
          continue;
        for (auto [dim, expr] : llvm::enumerate(map.getResults())) {
          unsigned loop = cast<AffineDimExpr>(expr).getPosition();
          if (failed(join(slotOf(operand.get(), dim),
                          loopSlot(&op, loop, ranges[loop]), &op)))
            return failure();
        }
      }
      if (failed(
              joinShapes(generic->getResult(0), generic.getDpsInits()[0], &op)))
        return failure();
      for (unsigned loop = 0; loop < ranges.size(); ++loop)
        loopSlot(&op, loop, ranges[loop]);
      if (failed(checkDistinct(&op)))
        return failure();
    } else if (isa<tensor::EmptyOp, arith::ConstantOp, func::ReturnOp,
                   shard::ShardingOp>(op)) {
      for (Value result : op.getResults())
        if (auto type = dyn_cast<RankedTensorType>(result.getType()))
          for (unsigned dim = 0; dim < type.getRank(); ++dim)
            slotOf(result, dim);
    } else {
      return op.emitError("tessel import-shard: '")
             << op.getName()
             << "' has no tessel form here (linalg ops on tensors, "
                "tensor.empty, arith.constant, shard.sharding and shard.shard "
                "do)";
    }
  }
  return success();
}

LogicalResult Importer::nameDimensions() {
  // Names the arguments give.
  for (BlockArgument argument : function.getArguments()) {
    auto given = function.getArgAttrOfType<ArrayAttr>(argument.getArgNumber(),
                                                      "tessel.dims");
    if (!given)
      continue;
    auto type = cast<RankedTensorType>(argument.getType());
    if (given.size() != (size_t)type.getRank())
      return function.emitError("tessel import-shard: argument ")
             << argument.getArgNumber() << "'s 'tessel.dims' names "
             << given.size() << " dimensions of " << type.getRank();
    for (auto [dim, name] : llvm::enumerate(given)) {
      auto text = dyn_cast<StringAttr>(name);
      if (!text || text.getValue().empty())
        return function.emitError("tessel import-shard: argument ")
               << argument.getArgNumber()
               << "'s 'tessel.dims' must be non-empty strings";
      unsigned leader = classes.getLeaderValue(slotOf(argument, dim));
      auto [it, inserted] =
          givenNames.try_emplace(leader, StringAttr::get(ctx, text.getValue()));
      if (!inserted && it->second.getValue() != text.getValue())
        return function.emitError("tessel import-shard: the program joins "
                                  "dimensions the arguments name '")
               << it->second.getValue() << "' and '" << text.getValue()
               << "' (one name in tessel)";
    }
  }
  llvm::StringSet<> taken;
  for (auto &[leader, name] : givenNames)
    taken.insert(name.getValue());
  // Generated names, in the order the slots were first seen.
  unsigned next = 0;
  for (unsigned slot = 0; slot < slotSizes.size(); ++slot) {
    unsigned leader = classes.getLeaderValue(slot);
    if (names.count(leader))
      continue;
    if (StringAttr given = givenNames.lookup(leader)) {
      names[leader] = given;
      continue;
    }
    std::string name;
    do
      name = fmt::format("d{}", next++);
    while (taken.contains(name));
    names[leader] = StringAttr::get(ctx, name);
  }
  return success();
}

FailureOr<Type> Importer::elementType(Type type, Operation *at) {
  if (type.isF32())
    return Type(Float32Type::get(ctx));
  if (type.isF64())
    return Type(Float64Type::get(ctx));
  if (type.isF16())
    return Type(Float16Type::get(ctx));
  if (type.isBF16())
    return Type(BFloat16Type::get(ctx));
  if (type.isIndex() || type.isSignlessInteger(64))
    return Type(IntegerType::get(ctx, 64));
  if (type.isSignlessInteger(32))
    return Type(IntegerType::get(ctx, 32));
  if (type.isSignlessInteger(1))
    return Type(IntegerType::get(ctx, 1));
  return at->emitError("tessel import-shard: element type ")
         << type << " has no tessel form (f32, f64, f16, bf16, i1, i32, i64)";
}

NamedTensorType Importer::scalarType(Type element) const {
  return NamedTensorType::get(ctx, {}, {}, element, LayoutAttr());
}

FailureOr<NamedTensorType> Importer::typeOf(Value value, Operation *at) {
  auto type = cast<RankedTensorType>(value.getType());
  FailureOr<Type> element = elementType(type.getElementType(), at);
  if (failed(element))
    return failure();
  SmallVector<StringAttr> dims;
  for (unsigned dim = 0; dim < type.getRank(); ++dim) {
    StringAttr name = nameOf(slotOf(value, dim));
    if (llvm::is_contained(dims, name))
      return fail(at)
             << "makes the dimensions of a " << type << " one dimension '"
             << name.getValue()
             << "' along the dataflow (a tensor cannot have a name twice)";
    dims.push_back(name);
  }
  return NamedTensorType::get(ctx, dims, type.getShape(), *element,
                              LayoutAttr());
}

Location Importer::locationOf(Operation *op) const {
  if (auto file = dyn_cast<FileLineColLoc>(op->getLoc()))
    return FileLineColLoc::get(ctx, file.getFilename().getValue(),
                               file.getLine(), file.getColumn());
  return UnknownLoc::get(ctx);
}

Value Importer::constant(Attribute value, Type element, Location loc) {
  return ConstantOp::create(builder, loc, scalarType(element), value);
}

FailureOr<Attribute> Importer::scalarConstant(Value value, Type element) {
  auto defined = value.getDefiningOp<arith::ConstantOp>();
  if (!defined)
    return failure();
  if (auto number = dyn_cast<FloatAttr>(defined.getValue())) {
    if (!isa<FloatType>(element))
      return failure();
    bool lost = false;
    APFloat converted = number.getValue();
    converted.convert(cast<FloatType>(element).getFloatSemantics(),
                      APFloat::rmNearestTiesToEven, &lost);
    return Attribute(FloatAttr::get(element, converted));
  }
  if (auto number = dyn_cast<IntegerAttr>(defined.getValue())) {
    if (!isa<IntegerType>(element))
      return failure();
    return Attribute(IntegerAttr::get(
        element,
        number.getValue().sextOrTrunc(element.getIntOrFloatBitWidth())));
  }
  return failure();
}

FailureOr<Value> Importer::lookup(Value value, Operation *at) {
  if (Value found = values.lookup(value))
    return found;
  if (Value found = materializedFills.lookup(value))
    return found;
  if (Attribute fill = fills.lookup(value)) {
    FailureOr<NamedTensorType> type = typeOf(value, at);
    if (failed(type))
      return failure();
    OpBuilder::InsertionGuard guard(builder);
    Value made = ConstantOp::create(builder, locationOf(at), *type, fill);
    materializedFills[value] = made;
    return made;
  }
  if (empties.contains(value))
    return fail(at) << "reads a tensor.empty "
                       "(its elements are undefined)";
  return fail(at) << "reads an operand from outside "
                     "what was translated";
}

LogicalResult Importer::emitArguments() {
  SmallVector<Type> inputs;
  SmallVector<DictionaryAttr> inputAttrs;
  SmallVector<BlockArgument> kept;
  struct Parameter {
    BlockArgument argument;
    DictionaryAttr spec;
  };
  SmallVector<Parameter> parameters;
  for (BlockArgument argument : function.getArguments()) {
    auto spec = function.getArgAttrOfType<DictionaryAttr>(
        argument.getArgNumber(), "tessel.parameter");
    if (spec) {
      parameters.push_back({argument, spec});
      continue;
    }
    FailureOr<NamedTensorType> type = typeOf(argument, function);
    if (failed(type))
      return failure();
    auto name = function.getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                                      "tessel.name");
    std::string text =
        name ? name.str() : fmt::format("arg{}", argument.getArgNumber());
    inputs.push_back(*type);
    inputAttrs.push_back(builder.getDictionaryAttr(builder.getNamedAttr(
        TesselDialect::kNameAttrName, builder.getStringAttr(text))));
    kept.push_back(argument);
  }
  SmallVector<Type> results;
  auto ret = cast<func::ReturnOp>(function.getBody().front().getTerminator());
  for (Value result : ret.getOperands()) {
    if (!isa<RankedTensorType>(result.getType()))
      return ret.emitError("tessel import-shard: every result must be a "
                           "tensor");
    FailureOr<NamedTensorType> type = typeOf(result, ret);
    if (failed(type))
      return failure();
    results.push_back(*type);
  }
  builder.setInsertionPointToEnd(target.getBody());
  auto tessel =
      func::FuncOp::create(builder, locationOf(function), function.getSymName(),
                           FunctionType::get(ctx, inputs, results));
  tessel.setAllArgAttrs(inputAttrs);
  for (unsigned index = 0; index < function.getNumResults(); ++index)
    if (auto name =
            function.getResultAttrOfType<StringAttr>(index, "tessel.name"))
      tessel.setResultAttr(index, TesselDialect::kNameAttrName,
                           StringAttr::get(ctx, name.getValue()));
  Block *entry = tessel.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  for (auto [argument, value] : llvm::zip(kept, entry->getArguments()))
    values[argument] = value;
  for (const Parameter &parameter : parameters) {
    auto fail = [&]() {
      return function.emitError("tessel import-shard: argument ")
             << parameter.argument.getArgNumber()
             << "'s 'tessel.parameter' must be {name = \"...\", init = "
                "\"zeros|ones|uniform|normal\", scale = F, seed = N}";
    };
    auto name = parameter.spec.getAs<StringAttr>("name");
    auto init = parameter.spec.getAs<StringAttr>("init");
    auto scale = parameter.spec.getAs<FloatAttr>("scale");
    auto seed = parameter.spec.getAs<IntegerAttr>("seed");
    if (!name || name.getValue().empty() || !init)
      return fail();
    std::optional<InitKind> kind = symbolizeInitKind(init.getValue());
    if (!kind)
      return fail();
    FailureOr<NamedTensorType> type = typeOf(parameter.argument, function);
    if (failed(type))
      return failure();
    values[parameter.argument] = ParameterOp::create(
        builder, locationOf(function), *type, name.getValue(), *kind,
        APFloat(scale ? scale.getValueAsDouble() : 1.0),
        seed ? seed.getInt() : 0, TypeAttr(),
        parameter.spec.get("buffer") != nullptr);
  }
  return success();
}

LogicalResult Importer::recordSharding(shard::ShardOp op) {
  auto sharding = op.getSharding().getDefiningOp<shard::ShardingOp>();
  if (!sharding)
    return op.emitError("tessel import-shard: the sharding must come from a "
                        "shard.sharding op");
  if (sharding.getGrid() != grid.getSymName())
    return sharding.emitError("tessel import-shard: the sharding is on @")
           << sharding.getGrid() << ", not on the grid @" << grid.getSymName();
  if (!sharding.getStaticHaloSizes().empty() ||
      !sharding.getDynamicHaloSizes().empty() ||
      !sharding.getStaticShardedDimsOffsets().empty() ||
      !sharding.getDynamicShardedDimsOffsets().empty())
    return sharding.emitError("tessel import-shard: halo sizes and sharded "
                              "dimension offsets have no tessel form (blocks "
                              "are even)");
  Split split;
  for (shard::GridAxesAttr axes : sharding.getSplitAxes().getAxes())
    split.push_back(SmallVector<int16_t>(axes.asArrayRef()));
  // [[0], []] and [[0]] are one split.
  while (!split.empty() && split.back().empty())
    split.pop_back();
  if (empties.contains(op.getSrc()))
    return success();
  FailureOr<Value> value = lookup(op.getSrc(), op);
  if (failed(value))
    return failure();
  auto [it, inserted] = annotations.insert({*value, split});
  if (inserted || it->second == split) {
    values[op.getResult()] = *value;
    return success();
  }
  // Annotated again with another split: upstream reshards here, so the
  // result is a copy of the value (a cast to its own type) that the layout
  // splits the other way, and what reads the result reads the copy.
  Value copy =
      CastOp::create(builder, locationOf(op), value->getType(), *value);
  annotations.insert({copy, split});
  values[op.getResult()] = copy;
  return success();
}

LogicalResult Importer::emitOp(Operation *op) {
  return llvm::TypeSwitch<Operation *, LogicalResult>(op)
      .Case<shard::ShardingOp>([](auto) { return success(); })
      .Case<shard::ShardOp>([&](auto shard) {
        if (empties.contains(shard.getSrc()))
          empties.insert(shard.getResult());
        return recordSharding(shard);
      })
      .Case<tensor::EmptyOp>([&](auto empty) {
        empties.insert(empty.getResult());
        return success();
      })
      .Case<linalg::FillOp>([&](linalg::FillOp fill) -> LogicalResult {
        auto type = cast<RankedTensorType>(fill->getResult(0).getType());
        FailureOr<Type> element = elementType(type.getElementType(), op);
        if (failed(element))
          return failure();
        FailureOr<Attribute> value =
            scalarConstant(fill.getInputs()[0], *element);
        if (failed(value))
          return op->emitError("tessel import-shard: a linalg.fill of a value "
                               "that is not an arith.constant");
        fills[fill->getResult(0)] = *value;
        return success();
      })
      .Case<arith::ConstantOp>(
          [&](arith::ConstantOp constantOp) -> LogicalResult {
            auto type = dyn_cast<RankedTensorType>(constantOp.getType());
            if (!type)
              return success(); // a scalar, read where it is used
            FailureOr<NamedTensorType> named = typeOf(constantOp, op);
            if (failed(named))
              return failure();
            auto dense = dyn_cast<DenseElementsAttr>(constantOp.getValue());
            if (!dense)
              return op->emitError(
                  "tessel import-shard: a tensor constant must "
                  "be dense elements");
            auto storage =
                RankedTensorType::get(type.getShape(), named->getElementType());
            Attribute value;
            if (isa<FloatType>(named->getElementType()))
              value = DenseElementsAttr::get(
                  storage, llvm::to_vector(dense.getValues<APFloat>()));
            else
              value = DenseElementsAttr::get(
                  storage, llvm::to_vector(dense.getValues<APInt>()));
            values[constantOp] =
                ConstantOp::create(builder, locationOf(op), *named, value);
            return success();
          })
      .Case<linalg::GenericOp>(
          [&](linalg::GenericOp generic) { return emitGeneric(generic); })
      .Case<func::ReturnOp>([&](func::ReturnOp ret) -> LogicalResult {
        SmallVector<Value> operands;
        for (Value result : ret.getOperands()) {
          FailureOr<Value> value = lookup(result, op);
          if (failed(value))
            return failure();
          operands.push_back(*value);
        }
        func::ReturnOp::create(builder, locationOf(op), operands);
        return success();
      })
      .Default([&](Operation *) {
        return op->emitError("tessel import-shard: '")
               << op->getName() << "' has no tessel form here";
      });
}

NamedTensorType Importer::unionType(Body &body, ArrayRef<Value> operands,
                                    Type element) const {
  SmallVector<StringAttr> dims;
  SmallVector<int64_t> shape;
  for (auto [index, name] : llvm::enumerate(body.order))
    if (llvm::any_of(operands, [&](Value operand) {
          return cast<NamedTensorType>(operand.getType()).hasDim(name);
        })) {
      dims.push_back(name);
      shape.push_back(body.loopSizes[llvm::find(body.loopNames, name) -
                                     body.loopNames.begin()]);
    }
  return NamedTensorType::get(ctx, dims, shape, element, LayoutAttr());
}

FailureOr<Value> Importer::coerce(Body &body, Value value, NamedTensorType to) {
  auto type = cast<NamedTensorType>(value.getType());
  if (type.getDimNames() == to.getDimNames())
    return value;
  for (StringAttr dim : type.getDimNames())
    if (!to.hasDim(dim.getValue()))
      return fail(body.op) << "the body's value has dimension '"
                           << dim.getValue() << "', which the result lacks";
  NamedTensorType coerced =
      NamedTensorType::get(ctx, to.getDimNames(), to.getShape(),
                           type.getElementType(), LayoutAttr());
  if (type.getRank() == to.getRank())
    return Value(TransposeOp::create(builder, body.loc, coerced, value));
  return Value(BroadcastOp::create(builder, body.loc, coerced, value));
}

FailureOr<Value> Importer::translate(Body &body, Value value) {
  if (Value found = body.translated.lookup(value))
    return found;
  Block *block = body.op.getBody();
  FailureOr<Value> result = failure();
  if (auto argument = dyn_cast<BlockArgument>(value);
      argument && argument.getOwner() == block) {
    unsigned index = argument.getArgNumber();
    if (index == body.op.getNumDpsInputs()) {
      if (!body.accumulator)
        return fail(body.op) << "a reduction reads its "
                                "accumulator outside its combining op";
      result = body.accumulator;
    } else {
      Value input = body.op.getDpsInputs()[index];
      if (isa<RankedTensorType>(input.getType())) {
        result = lookup(input, body.op);
      } else {
        FailureOr<Type> element = elementType(input.getType(), body.op);
        if (failed(element))
          return failure();
        FailureOr<Attribute> scalar = scalarConstant(input, *element);
        if (failed(scalar))
          return fail(body.op)
                 << "scalar input #" << index << " is not an arith.constant";
        result = constant(*scalar, *element, body.loc);
      }
    }
  } else if (Operation *defining = value.getDefiningOp()) {
    result = translateOp(body, defining);
  } else {
    return fail(body.op) << "the body reads a value "
                            "from outside the generic";
  }
  if (succeeded(result))
    body.translated[value] = *result;
  return result;
}

FailureOr<Value> Importer::translateOp(Body &body, Operation *op) {
  Location loc = locationOf(op);
  auto element = [&]() { return elementType(op->getResult(0).getType(), op); };
  SmallVector<Value> operands;
  auto operandsOf = [&]() -> LogicalResult {
    for (Value operand : op->getOperands()) {
      FailureOr<Value> value = translate(body, operand);
      if (failed(value))
        return failure();
      operands.push_back(*value);
    }
    return success();
  };
  auto isZero = [](Value value) {
    auto made = value.getDefiningOp<ConstantOp>();
    auto number = made ? dyn_cast<FloatAttr>(made.getValue()) : FloatAttr();
    return number && number.getValue().isZero() &&
           cast<NamedTensorType>(value.getType()).getRank() == 0;
  };
  auto unary = [&](auto tag) -> FailureOr<Value> {
    using OpT = decltype(tag);
    if (failed(operandsOf()))
      return failure();
    return Value(OpT::create(builder, loc, operands[0].getType(), operands[0]));
  };
  auto binary = [&](auto tag) -> FailureOr<Value> {
    using OpT = decltype(tag);
    if (failed(operandsOf()))
      return failure();
    FailureOr<Type> type = element();
    if (failed(type))
      return failure();
    NamedTensorType result = unionType(body, operands, *type);
    // max(x, 0) is a relu.
    if constexpr (std::is_same_v<OpT, MaxOp>) {
      for (int side = 0; side < 2; ++side)
        if (isZero(operands[side]) && operands[1 - side].getType() == result)
          return Value(
              ReluOp::create(builder, loc, result, operands[1 - side]));
    }
    return Value(OpT::create(builder, loc, result, operands[0], operands[1]));
  };
  auto compare = [&](CompareKind kind) -> FailureOr<Value> {
    // `index == ids` along a loop: upstream's one-hot (the label's logit of
    // a cross-entropy), a tessel.one_hot of the ids along that loop's
    // dimension, compared with 0.
    if (kind == CompareKind::Eq || kind == CompareKind::Ne) {
      for (int side = 0; side < 2; ++side) {
        auto index = op->getOperand(side).getDefiningOp<linalg::IndexOp>();
        auto toIndex =
            op->getOperand(1 - side).getDefiningOp<arith::IndexCastOp>();
        if (!index || !toIndex || index->getBlock() != body.op.getBody())
          continue;
        FailureOr<Value> ids = translate(body, toIndex.getIn());
        if (failed(ids))
          return failure();
        auto idsType = cast<NamedTensorType>(ids->getType());
        StringAttr dim = body.loopNames[index.getDim()];
        if (idsType.hasDim(dim.getValue()))
          break;
        SmallVector<StringAttr> dims(idsType.getDimNames());
        SmallVector<int64_t> shape(idsType.getShape());
        dims.push_back(dim);
        shape.push_back(body.loopSizes[index.getDim()]);
        Type f32 = Float32Type::get(ctx);
        Value oneHot = OneHotOp::create(
            builder, loc,
            NamedTensorType::get(ctx, dims, shape, f32, LayoutAttr()), *ids,
            dim.getValue());
        Value zero = constant(FloatAttr::get(f32, 0.0), f32, loc);
        return Value(CompareOp::create(
            builder, loc,
            NamedTensorType::get(ctx, dims, shape, IntegerType::get(ctx, 1),
                                 LayoutAttr()),
            kind == CompareKind::Eq ? CompareKind::Ne : CompareKind::Eq, oneHot,
            zero));
      }
    }
    if (failed(operandsOf()))
      return failure();
    return Value(CompareOp::create(
        builder, loc, unionType(body, operands, IntegerType::get(ctx, 1)), kind,
        operands[0], operands[1]));
  };
  auto convert = [&]() -> FailureOr<Value> {
    if (failed(operandsOf()))
      return failure();
    FailureOr<Type> type = element();
    if (failed(type))
      return failure();
    auto from = cast<NamedTensorType>(operands[0].getType());
    if (from.getElementType() == *type)
      return operands[0];
    return Value(CastOp::create(builder, loc,
                                NamedTensorType::get(ctx, from.getDimNames(),
                                                     from.getShape(), *type,
                                                     LayoutAttr()),
                                operands[0]));
  };
  auto floatPredicate =
      [](arith::CmpFPredicate predicate) -> std::optional<CompareKind> {
    using P = arith::CmpFPredicate;
    switch (predicate) {
    case P::OEQ:
    case P::UEQ:
      return CompareKind::Eq;
    case P::ONE:
    case P::UNE:
      return CompareKind::Ne;
    case P::OLT:
    case P::ULT:
      return CompareKind::Lt;
    case P::OLE:
    case P::ULE:
      return CompareKind::Le;
    case P::OGT:
    case P::UGT:
      return CompareKind::Gt;
    case P::OGE:
    case P::UGE:
      return CompareKind::Ge;
    default:
      return std::nullopt;
    }
  };
  auto integerPredicate =
      [](arith::CmpIPredicate predicate) -> std::optional<CompareKind> {
    using P = arith::CmpIPredicate;
    switch (predicate) {
    case P::eq:
      return CompareKind::Eq;
    case P::ne:
      return CompareKind::Ne;
    case P::slt:
      return CompareKind::Lt;
    case P::sle:
      return CompareKind::Le;
    case P::sgt:
      return CompareKind::Gt;
    case P::sge:
      return CompareKind::Ge;
    default:
      return std::nullopt;
    }
  };

  FailureOr<Value> result =
      llvm::TypeSwitch<Operation *, FailureOr<Value>>(op)
          .Case<arith::ConstantOp>(
              [&](arith::ConstantOp made) -> FailureOr<Value> {
                FailureOr<Type> type = element();
                if (failed(type))
                  return failure();
                FailureOr<Attribute> scalar = scalarConstant(made, *type);
                if (failed(scalar))
                  return op->emitError(
                      "tessel import-shard: a constant that is "
                      "not a scalar number");
                return constant(*scalar, *type, loc);
              })
          .Case<arith::AddFOp, arith::AddIOp>(
              [&](auto) { return binary(AddOp()); })
          .Case<arith::SubFOp, arith::SubIOp>(
              [&](auto) { return binary(SubOp()); })
          .Case<arith::MulFOp, arith::MulIOp>(
              [&](auto) { return binary(MulOp()); })
          .Case<arith::DivFOp>([&](auto) { return binary(DivOp()); })
          .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
              [&](auto) { return binary(MaxOp()); })
          .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
              [&](auto) { return binary(MinOp()); })
          .Case<math::PowFOp>([&](auto) { return binary(PowOp()); })
          .Case<arith::NegFOp>([&](auto) { return unary(NegOp()); })
          .Case<math::AbsFOp>([&](auto) { return unary(AbsOp()); })
          .Case<math::ExpOp>([&](auto) { return unary(ExpOp()); })
          .Case<math::LogOp>([&](auto) { return unary(LogOp()); })
          .Case<math::SqrtOp>([&](auto) { return unary(SqrtOp()); })
          .Case<math::RsqrtOp>([&](auto) { return unary(RsqrtOp()); })
          .Case<math::TanhOp>([&](auto) { return unary(TanhOp()); })
          .Case<math::ErfOp>([&](auto) { return unary(ErfOp()); })
          .Case<math::SinOp>([&](auto) { return unary(SinOp()); })
          .Case<math::CosOp>([&](auto) { return unary(CosOp()); })
          .Case<arith::CmpFOp>([&](arith::CmpFOp cmp) -> FailureOr<Value> {
            std::optional<CompareKind> kind =
                floatPredicate(cmp.getPredicate());
            if (!kind)
              return op->emitError("tessel import-shard: comparison '")
                     << arith::stringifyCmpFPredicate(cmp.getPredicate())
                     << "' has no tessel form";
            return compare(*kind);
          })
          .Case<arith::CmpIOp>([&](arith::CmpIOp cmp) -> FailureOr<Value> {
            std::optional<CompareKind> kind =
                integerPredicate(cmp.getPredicate());
            if (!kind)
              return op->emitError("tessel import-shard: comparison '")
                     << arith::stringifyCmpIPredicate(cmp.getPredicate())
                     << "' has no tessel form";
            return compare(*kind);
          })
          .Case<arith::SelectOp>([&](auto) -> FailureOr<Value> {
            if (failed(operandsOf()))
              return failure();
            FailureOr<Type> type = element();
            if (failed(type))
              return failure();
            return Value(
                SelectOp::create(builder, loc, unionType(body, operands, *type),
                                 operands[0], operands[1], operands[2]));
          })
          .Case<arith::IndexCastOp, arith::ExtSIOp, arith::TruncIOp,
                arith::SIToFPOp, arith::FPToSIOp, arith::ExtFOp,
                arith::TruncFOp>([&](auto) { return convert(); })
          .Case<linalg::IndexOp>(
              [&](linalg::IndexOp index) -> FailureOr<Value> {
                StringAttr dim = body.loopNames[index.getDim()];
                return Value(IotaOp::create(
                    builder, loc,
                    NamedTensorType::get(
                        ctx, {dim}, {body.loopSizes[index.getDim()]},
                        IntegerType::get(ctx, 64), LayoutAttr()),
                    dim.getValue()));
              })
          .Default([&](Operation *) -> FailureOr<Value> {
            return op->emitError("tessel import-shard: '")
                   << op->getName()
                   << "' in a linalg.generic has no tessel form here";
          });
  return result;
}

/// The reduction a combining op of a generic's body makes.
std::optional<ReduceKind> reductionOf(Operation *op) {
  return llvm::TypeSwitch<Operation *, std::optional<ReduceKind>>(op)
      .Case<arith::AddFOp, arith::AddIOp>([](auto) { return ReduceKind::Sum; })
      .Case<arith::MulFOp, arith::MulIOp>([](auto) { return ReduceKind::Prod; })
      .Case<arith::MaximumFOp, arith::MaxNumFOp, arith::MaxSIOp>(
          [](auto) { return ReduceKind::Max; })
      .Case<arith::MinimumFOp, arith::MinNumFOp, arith::MinSIOp>(
          [](auto) { return ReduceKind::Min; })
      .Default([](Operation *) { return std::nullopt; });
}

/// Whether `value` is the identity of `kind` (so an init filled with it
/// adds nothing to the reduction).
bool isIdentity(Attribute value, ReduceKind kind) {
  auto number = dyn_cast<FloatAttr>(value);
  if (!number)
    return kind == ReduceKind::Sum && isa<IntegerAttr>(value) &&
           cast<IntegerAttr>(value).getValue().isZero();
  const APFloat &x = number.getValue();
  switch (kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    return x.isZero();
  case ReduceKind::Prod:
    return x.convertToDouble() == 1.0;
  case ReduceKind::Max:
    return x.isInfinity() && x.isNegative();
  case ReduceKind::Min:
    return x.isInfinity() && !x.isNegative();
  }
  return false;
}

FailureOr<Value> Importer::lookupOf(Body &body, Value element,
                                    NamedTensorType resultType) {
  linalg::GenericOp op = body.op;
  auto inputOf = [&](Value value) -> Value {
    auto argument = dyn_cast<BlockArgument>(value);
    if (!argument || argument.getOwner() != op.getBody() ||
        argument.getArgNumber() >= op.getNumDpsInputs())
      return Value();
    Value input = op.getDpsInputs()[argument.getArgNumber()];
    return isa<RankedTensorType>(input.getType()) ? input : Value();
  };
  auto choice = element.getDefiningOp<arith::SelectOp>();
  auto zero = choice ? choice.getFalseValue().getDefiningOp<arith::ConstantOp>()
                     : arith::ConstantOp();
  auto number = zero ? dyn_cast<FloatAttr>(zero.getValue()) : FloatAttr();
  auto same = choice ? choice.getCondition().getDefiningOp<arith::CmpIOp>()
                     : arith::CmpIOp();
  if (!choice || !number || !number.getValue().isZero() || !same ||
      same.getPredicate() != arith::CmpIPredicate::eq ||
      op.getNumReductionLoops() != 1 || !inputOf(choice.getTrueValue()))
    return Value();
  for (int side = 0; side < 2; ++side) {
    auto index = same->getOperand(side).getDefiningOp<linalg::IndexOp>();
    auto toIndex =
        same->getOperand(1 - side).getDefiningOp<arith::IndexCastOp>();
    if (!index || !toIndex || !inputOf(toIndex.getIn()) ||
        !linalg::isReductionIterator(
            op.getIteratorTypesArray()[index.getDim()]))
      continue;
    FailureOr<Value> table = lookup(inputOf(choice.getTrueValue()), op);
    FailureOr<Value> ids = lookup(inputOf(toIndex.getIn()), op);
    if (failed(table) || failed(ids))
      return failure();
    auto tableType = cast<NamedTensorType>(table->getType());
    auto idsType = cast<NamedTensorType>(ids->getType());
    StringAttr dim = body.loopNames[index.getDim()];
    // tessel.gather's ids share no dimension with the table (a label's
    // logit, picked per row, stays a one-hot).
    if (!tableType.hasDim(dim.getValue()) ||
        llvm::any_of(idsType.getDimNames(), [&](StringAttr name) {
          return tableType.hasDim(name.getValue());
        }))
      continue;
    // The ids' dimensions, then the table's others, as tessel.gather has.
    SmallVector<StringAttr> dims(idsType.getDimNames());
    SmallVector<int64_t> shape(idsType.getShape());
    for (auto [name, size] :
         llvm::zip(tableType.getDimNames(), tableType.getShape()))
      if (name != dim) {
        dims.push_back(name);
        shape.push_back(size);
      }
    if (dims.size() != resultType.getRank() ||
        !llvm::all_of(dims, [&](StringAttr name) {
          return resultType.hasDim(name.getValue());
        }))
      continue;
    Value gathered = GatherOp::create(
        builder, body.loc,
        NamedTensorType::get(ctx, dims, shape, tableType.getElementType(),
                             LayoutAttr()),
        *table, *ids, dim.getValue());
    return coerce(body, gathered, resultType);
  }
  return Value();
}

LogicalResult Importer::emitGeneric(linalg::GenericOp op) {
  Body body{op, {}, {}, {}, Value(), DenseMap<Value, Value>(), locationOf(op)};
  SmallVector<int64_t> ranges = op.getStaticLoopRanges();
  for (unsigned loop = 0; loop < ranges.size(); ++loop) {
    StringAttr name = nameOf(loopSlot(op, loop, ranges[loop]));
    if (llvm::is_contained(body.loopNames, name))
      return fail(op) << "two of its loops are one dimension '"
                      << name.getValue() << "' along the dataflow";
    body.loopNames.push_back(name);
    body.loopSizes.push_back(ranges[loop]);
  }
  FailureOr<NamedTensorType> resultType = typeOf(op->getResult(0), op);
  if (failed(resultType))
    return failure();
  body.order.assign(resultType->getDimNames().begin(),
                    resultType->getDimNames().end());
  for (StringAttr name : body.loopNames)
    if (!llvm::is_contained(body.order, name))
      body.order.push_back(name);

  Value init = op.getDpsInits()[0];
  auto yield = cast<linalg::YieldOp>(op.getBody()->getTerminator());
  Value yielded = yield.getValues()[0];
  BlockArgument accumulator = op.getBody()->getArgument(op.getNumDpsInputs());
  bool reduction = op.getNumReductionLoops() > 0;

  if (!reduction) {
    // A parallel generic: its body, element-wise, over the accumulator's
    // value where the body reads it.
    if (!accumulator.use_empty()) {
      FailureOr<Value> initial = lookup(init, op);
      if (failed(initial))
        return failure();
      body.accumulator = *initial;
    }
    // A sum scaled by 1 / count is a mean.
    if (auto scale = yielded.getDefiningOp<arith::MulFOp>()) {
      for (int side = 0; side < 2; ++side) {
        auto argument = dyn_cast<BlockArgument>(scale->getOperand(side));
        auto factor =
            scale->getOperand(1 - side).getDefiningOp<arith::ConstantOp>();
        if (!argument || !factor || argument.getOwner() != op.getBody() ||
            argument.getArgNumber() >= op.getNumDpsInputs())
          continue;
        FailureOr<Value> input =
            lookup(op.getDpsInputs()[argument.getArgNumber()], op);
        auto sum =
            succeeded(input) ? input->getDefiningOp<ReduceOp>() : ReduceOp();
        auto number = dyn_cast<FloatAttr>(factor.getValue());
        if (!sum || sum.getKind() != ReduceKind::Sum || !number ||
            sum.getType() != *resultType)
          continue;
        double count = double(sum.getInput().getType().getNumElements()) /
                       double(sum.getType().getNumElements());
        if (std::abs(number.getValueAsDouble() * count - 1.0) > 1e-6)
          continue;
        values[op->getResult(0)] = ReduceOp::create(
            builder, body.loc, *resultType, ReduceKind::Mean, sum.getInput());
        return success();
      }
    }
    FailureOr<Value> value = translate(body, yielded);
    if (failed(value))
      return failure();
    FailureOr<Value> result = coerce(body, *value, *resultType);
    if (failed(result))
      return failure();
    values[op->getResult(0)] = *result;
    return success();
  }

  // A reduction: combine(accumulator, f(inputs)).
  Operation *combine = yielded.getDefiningOp();
  std::optional<ReduceKind> kind =
      combine && combine->getBlock() == op.getBody() &&
              combine->getNumOperands() == 2
          ? reductionOf(combine)
          : std::nullopt;
  int accumulatorSide = -1;
  if (kind)
    for (int side = 0; side < 2; ++side)
      if (combine->getOperand(side) == accumulator)
        accumulatorSide = side;
  if (!kind || accumulatorSide < 0)
    return fail(op) << "a reduction's body must be "
                       "combine(accumulator, f(inputs)) with combine one of "
                       "add, mul, maximum, minimum";
  Value element = combine->getOperand(1 - accumulatorSide);

  // acc + a * b * ... of inputs: an einsum.
  Value reduced;
  SmallVector<Value> factors;
  std::function<bool(Value)> collectFactors = [&](Value value) {
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      if (argument.getOwner() != op.getBody() ||
          argument.getArgNumber() >= op.getNumDpsInputs() ||
          !isa<RankedTensorType>(
              op.getDpsInputs()[argument.getArgNumber()].getType()))
        return false;
      factors.push_back(op.getDpsInputs()[argument.getArgNumber()]);
      return true;
    }
    auto product = value.getDefiningOp<arith::MulFOp>();
    return product && product->getBlock() == op.getBody() &&
           collectFactors(product.getLhs()) && collectFactors(product.getRhs());
  };
  if (*kind == ReduceKind::Sum && collectFactors(element) &&
      factors.size() >= 2) {
    SmallVector<Value> inputs;
    for (Value factor : factors) {
      FailureOr<Value> input = lookup(factor, op);
      if (failed(input))
        return failure();
      inputs.push_back(*input);
    }
    bool covered = llvm::all_of(resultType->getDimNames(), [&](StringAttr dim) {
      return llvm::any_of(inputs, [&](Value input) {
        return cast<NamedTensorType>(input.getType()).hasDim(dim.getValue());
      });
    });
    if (covered)
      reduced = EinsumOp::create(builder, body.loc, *resultType, inputs);
  }
  // acc + (index_v == ids ? table : 0) over v alone: a lookup.
  if (!reduced && *kind == ReduceKind::Sum) {
    FailureOr<Value> lookedUp = lookupOf(body, element, *resultType);
    if (failed(lookedUp))
      return failure();
    reduced = *lookedUp;
  }
  if (!reduced) {
    FailureOr<Value> value = translate(body, element);
    if (failed(value))
      return failure();
    // Over every loop, so that a loop no input has still counts.
    NamedTensorType whole = NamedTensorType::get(
        ctx, body.order,
        [&] {
          SmallVector<int64_t> shape;
          for (StringAttr name : body.order)
            shape.push_back(body.loopSizes[llvm::find(body.loopNames, name) -
                                           body.loopNames.begin()]);
          return shape;
        }(),
        resultType->getElementType(), LayoutAttr());
    if (cast<NamedTensorType>(value->getType()).getRank() != whole.getRank()) {
      FailureOr<Value> spread = coerce(body, *value, whole);
      if (failed(spread))
        return failure();
      value = spread;
    }
    reduced = ReduceOp::create(builder, body.loc, *resultType, *kind, *value);
  }
  // An init other than the identity joins the result.
  Attribute filled = fills.lookup(init);
  if (filled && isIdentity(filled, *kind)) {
    values[op->getResult(0)] = reduced;
    return success();
  }
  FailureOr<Value> initial = lookup(init, op);
  if (failed(initial))
    return failure();
  Value combined;
  switch (*kind) {
  case ReduceKind::Sum:
  case ReduceKind::Mean:
    combined = AddOp::create(builder, body.loc, *resultType, reduced, *initial);
    break;
  case ReduceKind::Prod:
    combined = MulOp::create(builder, body.loc, *resultType, reduced, *initial);
    break;
  case ReduceKind::Max:
    combined = MaxOp::create(builder, body.loc, *resultType, reduced, *initial);
    break;
  case ReduceKind::Min:
    combined = MinOp::create(builder, body.loc, *resultType, reduced, *initial);
    break;
  }
  values[op->getResult(0)] = combined;
  return success();
}

std::string Importer::tensorName(Value value) {
  if (auto argument = dyn_cast<BlockArgument>(value)) {
    auto func = cast<func::FuncOp>(argument.getOwner()->getParentOp());
    return func
        .getArgAttrOfType<StringAttr>(argument.getArgNumber(),
                                      TesselDialect::kNameAttrName)
        .str();
  }
  Operation *op = value.getDefiningOp();
  if (auto parameter = dyn_cast<ParameterOp>(op))
    return parameter.getName().str();
  if (auto name = op->getAttrOfType<StringAttr>(TesselDialect::kNameAttrName))
    return name.str();
  std::string name = fmt::format("t{}", generatedNames++);
  op->setAttr(TesselDialect::kNameAttrName, StringAttr::get(ctx, name));
  return name;
}

ImportedLayout Importer::deriveLayout() {
  ImportedLayout layout;
  for (auto [name, size] : llvm::zip(axisNames, grid.getShape()))
    layout.mesh.push_back({name, size});
  auto axesOf = [&](const Split &split, unsigned dim) {
    ImportedLayout::Axes axes;
    if (dim < split.size())
      for (int16_t axis : split[dim])
        axes.push_back(axisNames[axis]);
    return axes;
  };
  // Each dimension's splits, counted over the annotated tensors.
  std::vector<std::string> dimOrder;
  std::map<std::string, std::vector<std::pair<ImportedLayout::Axes, int>>>
      votes;
  for (auto &[value, split] : annotations) {
    auto type = cast<NamedTensorType>(value.getType());
    for (auto [dim, name] : llvm::enumerate(type.getDimNames())) {
      auto &counts = votes[name.str()];
      if (counts.empty())
        dimOrder.push_back(name.str());
      ImportedLayout::Axes axes = axesOf(split, dim);
      auto it = llvm::find_if(counts, [&](auto &c) { return c.first == axes; });
      if (it == counts.end())
        counts.push_back({axes, 1});
      else
        ++it->second;
    }
  }
  std::map<std::string, ImportedLayout::Axes> rule;
  for (const std::string &dim : dimOrder) {
    const auto &counts = votes[dim];
    auto best = std::max_element(
        counts.begin(), counts.end(),
        [](const auto &a, const auto &b) { return a.second < b.second; });
    rule[dim] = best->first;
    if (!best->first.empty())
      layout.rules.push_back({dim, best->first});
  }
  for (auto &[value, split] : annotations) {
    auto type = cast<NamedTensorType>(value.getType());
    std::vector<std::pair<std::string, ImportedLayout::Axes>> differing;
    for (auto [dim, name] : llvm::enumerate(type.getDimNames())) {
      ImportedLayout::Axes axes = axesOf(split, dim);
      if (axes != rule[name.str()])
        differing.push_back({name.str(), axes});
    }
    if (!differing.empty())
      layout.overrides.push_back({tensorName(value), differing});
  }
  return layout;
}

FailureOr<ImportedLayout> Importer::run() {
  // Named ops as generics, so that one translation serves them all.
  IRRewriter rewriter(function.getContext());
  SmallVector<linalg::LinalgOp> named;
  for (Operation &op : function.getBody().front())
    if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
        linalgOp && !isa<linalg::GenericOp, linalg::FillOp>(op))
      named.push_back(linalgOp);
  for (linalg::LinalgOp op : named) {
    std::string written = op->getName().getStringRef().str();
    rewriter.setInsertionPoint(op);
    FailureOr<linalg::GenericOp> generic =
        linalg::generalizeNamedOp(rewriter, op);
    if (failed(generic))
      return fail(op) << "could not be written as a linalg.generic";
    writtenNames[*generic] = written;
  }
  if (failed(readGrid()) || failed(collectSlots()) ||
      failed(nameDimensions()) || failed(emitArguments()))
    return failure();
  for (Operation &op : function.getBody().front())
    if (failed(emitOp(&op)))
      return failure();
  // A sum that became a mean may be left unused; so may a fill's constant.
  func::FuncOp made = cast<func::FuncOp>(target.getBody()->back());
  SmallVector<Operation *> ops;
  for (Operation &op : made.getBody().front())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (!isa<ParameterOp>(op) && op->getNumResults() == 1 &&
        op->getResult(0).use_empty() && isPure(op)) {
      annotations.erase(op->getResult(0));
      op->erase();
    }
  return deriveLayout();
}

} // namespace

FailureOr<ImportedLayout>
mlir::tessel::importShardFunction(ModuleOp upstream, func::FuncOp function,
                                  ModuleOp target) {
  return Importer(upstream, function, target).run();
}
