//===- Model.cpp - tracing functions and layers into a module -------------===//

#include "frontend/ModelState.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <unistd.h>

using namespace mlir;
using mlir::tessel::NamedTensorType;

namespace tessel {

//===----------------------------------------------------------------------===//
// ModelState
//===----------------------------------------------------------------------===//

ModelState::ModelState(Model &owner)
    : owner(owner), builder(&context),
      location(UnknownLoc::get(&context)) {
  context.loadDialect<mlir::tessel::TesselDialect, func::FuncDialect>();
  module = ModuleOp::create(location);
  context.getDiagEngine().registerHandler([this](Diagnostic &diagnostic) {
    std::string text;
    llvm::raw_string_ostream os(text);
    // The source line that built the op (Model::setLocation), if any.
    if (auto line = dyn_cast<FileLineColLoc>(diagnostic.getLocation()))
      os << line.getFilename().getValue() << ":" << line.getLine() << ": ";
    os << diagnostic;
    // The verifier's note that prints the whole op adds nothing here.
    for (const Diagnostic &note : diagnostic.getNotes())
      if (!StringRef(note.str()).starts_with("see current operation"))
        os << "; " << note;
    diagnostics.push_back(text);
    return success();
  });
}

Type ModelState::elementType(DType dtype) {
  switch (dtype) {
  case DType::F32:
    return builder.getF32Type();
  case DType::F16:
    return builder.getF16Type();
  case DType::BF16:
    return builder.getBF16Type();
  case DType::F64:
    return builder.getF64Type();
  case DType::I1:
    return builder.getI1Type();
  case DType::I32:
    return builder.getI32Type();
  case DType::I64:
    return builder.getI64Type();
  }
  throw Error("unknown element type");
}

DType dtypeOf(Type type) {
  if (type.isF32())
    return DType::F32;
  if (type.isF16())
    return DType::F16;
  if (type.isBF16())
    return DType::BF16;
  if (type.isF64())
    return DType::F64;
  if (type.isSignlessInteger(1))
    return DType::I1;
  if (type.isSignlessInteger(32))
    return DType::I32;
  if (type.isSignlessInteger(64))
    return DType::I64;
  throw Error("an element type the front end does not know");
}

NamedTensorType ModelState::tensorType(const Dims &dims, DType dtype,
                                       const std::string &op) {
  SmallVector<StringAttr> names;
  SmallVector<int64_t> shape;
  std::set<std::string> seen;
  for (const Dim &dim : dims) {
    if (!seen.insert(dim.name).second)
      throw Error(fmt::format("{}: dimension '{}' appears twice in {}; use "
                              "two names (rename) for two extents",
                              op, dim.name, formatDims(dims)));
    names.push_back(builder.getStringAttr(dim.name));
    shape.push_back(dim.size);
  }
  return NamedTensorType::get(names, shape, elementType(dtype));
}

Block *ModelState::currentBody(const std::string &op) {
  if (bodies.empty())
    throw Error(fmt::format(
        "{}: ops are built inside a function (Model::define) or a layer", op));
  return bodies.back();
}

Value ModelState::operand(const Tensor &tensor, const std::string &op) {
  stateOf(tensor, op);
  if (tensor.modelState() != this)
    throw Error(fmt::format("{}: operand {} belongs to another model", op,
                            tensor.str()));
  currentBody(op);
  // Checked before the value is touched: a tensor of a body that was erased
  // (a failed define, a layer trace that duplicated an earlier one) has a
  // number no live body has.
  if (tensor.owner() != bodyIds.back())
    throw Error(fmt::format(
        "{}: operand {} belongs to another function; a layer takes the "
        "tensors it uses as arguments",
        op, tensor.str()));
  return Value::getFromOpaquePointer(tensor.opaqueValue());
}

Tensor ModelState::wrap(Value value) {
  auto type = cast<NamedTensorType>(value.getType());
  Dims dims;
  for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape()))
    dims.emplace_back(name.str(), size);
  // Values are wrapped only as they are made, in the body being traced.
  return Tensor(weak_from_this(), value.getAsOpaquePointer(), bodyIds.back(),
                std::move(dims), dtypeOf(type.getElementType()));
}

std::string ModelState::takeDiagnostics() {
  std::string joined;
  for (const std::string &message : diagnostics)
    joined += (joined.empty() ? "" : "; ") + message;
  diagnostics.clear();
  return joined;
}

Tensor ModelState::finish(Operation *built, const std::string &op) {
  diagnostics.clear();
  if (failed(mlir::verify(built))) {
    std::string message = takeDiagnostics();
    built->erase();
    throw Error(fmt::format("{}: {}", op, message));
  }
  return wrap(built->getResult(0));
}

ModelState &stateOf(const Tensor &tensor, const std::string &op) {
  if (tensor.orphaned())
    throw Error(fmt::format("{}: operand {} belongs to a model that no "
                            "longer exists",
                            op, tensor.str()));
  if (!tensor.valid())
    throw Error(fmt::format("{}: an operand is an empty tensor", op));
  return *tensor.modelState();
}

//===----------------------------------------------------------------------===//
// Tracing a function body
//===----------------------------------------------------------------------===//

namespace {

/// Opens a function body for tracing and closes it again, on success or
/// when the body throws (then the half-built function is erased).
class TracedFunction {
public:
  TracedFunction(ModelState &state, const std::string &name,
                 ArrayRef<Type> argTypes, StringRef visibility)
      : state(state), guard(state.builder) {
    state.builder.setInsertionPointToEnd(state.module->getBody());
    function = func::FuncOp::create(
        state.builder, state.location, name,
        state.builder.getFunctionType(argTypes, {}));
    function.setVisibility(visibility == "private"
                               ? SymbolTable::Visibility::Private
                               : SymbolTable::Visibility::Public);
    Block *body = function.addEntryBlock();
    state.bodies.push_back(body);
    state.bodyIds.push_back(state.nextBodyId++);
    state.builder.setInsertionPointToEnd(body);
  }
  ~TracedFunction() {
    state.bodies.pop_back();
    state.bodyIds.pop_back();
    if (!finished)
      function.erase();
  }

  std::vector<Tensor> arguments() {
    std::vector<Tensor> args;
    for (BlockArgument arg : function.getArguments())
      args.push_back(state.wrap(arg));
    return args;
  }

  /// Ends the body with a return of `results` and verifies the function;
  /// only a function that verifies is kept.
  void finish(const std::vector<Tensor> &results, const std::string &what) {
    SmallVector<Value> values;
    SmallVector<Type> types;
    for (const Tensor &result : results) {
      values.push_back(state.operand(result, what + " result"));
      types.push_back(values.back().getType());
    }
    func::ReturnOp::create(state.builder, state.location, values);
    function.setFunctionType(state.builder.getFunctionType(
        function.getArgumentTypes(), types));
    state.diagnostics.clear();
    if (failed(mlir::verify(function)))
      throw Error(fmt::format("{}: {}", what, state.takeDiagnostics()));
    finished = true;
  }

  func::FuncOp function;

private:
  ModelState &state;
  OpBuilder::InsertionGuard guard;
  bool finished = false;
};

/// A symbol name from a layer kind: letters, digits and '_' kept.
std::string symbolFor(const std::string &kind) {
  std::string symbol;
  for (char c : kind)
    symbol += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
  return symbol.empty() ? "layer" : symbol;
}

/// The printed function without its name: two traces that print the same
/// are the same function.
std::string fingerprint(func::FuncOp function) {
  std::string name = function.getSymName().str();
  function.setSymName("layer");
  std::string text;
  llvm::raw_string_ostream os(text);
  function->print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
  function.setSymName(name);
  return text;
}

/// A seed from a parameter's local name (FNV-1a, 31 bits), so that the
/// parameters of one function draw different numbers.
int64_t seedFromName(const std::string &name) {
  uint32_t hash = 2166136261u;
  for (unsigned char c : name) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash & 0x7fffffff;
}

} // namespace

//===----------------------------------------------------------------------===//
// Model
//===----------------------------------------------------------------------===//

Model::Model() : impl(std::make_shared<ModelState>(*this)) {}
Model::~Model() = default;

Model &Model::of(const Tensor &tensor) {
  return stateOf(tensor, "Model::of").owner;
}

bool Model::hasFunction(const std::string &name) const {
  return SymbolTable::lookupSymbolIn(impl->module.get(), name) != nullptr;
}

bool Model::training() const { return impl->training; }

void Model::define(const std::string &name, const std::vector<Input> &inputs,
                   const Body &body, std::optional<bool> training) {
  ModelState &state = *impl;
  if (name.empty())
    throw Error("define: a function needs a name");
  if (hasFunction(name))
    throw Error(fmt::format("define: function '{}' is already defined", name));
  if (!state.bodies.empty())
    throw Error(fmt::format("define '{}': functions are defined at the top "
                            "level; inside a function, call a layer",
                            name));
  SmallVector<Type> argTypes;
  std::set<std::string> inputNames;
  for (const Input &input : inputs) {
    if (!inputNames.insert(input.name).second || input.name.empty())
      throw Error(fmt::format("define '{}': input name '{}' is {}", name,
                              input.name,
                              input.name.empty() ? "empty" : "used twice"));
    argTypes.push_back(state.tensorType(
        input.dims, input.dtype,
        fmt::format("define '{}': input '{}'", name, input.name)));
  }
  TracedFunction traced(state, name, argTypes, "public");
  state.training = training.value_or(name == "forward");
  struct RestoreTraining {
    ModelState &state;
    ~RestoreTraining() { state.training = true; }
  } restoreTraining{state};
  for (auto [index, input] : llvm::enumerate(inputs))
    traced.function.setArgAttr(
        index, mlir::tessel::TesselDialect::kNameAttrName,
        state.builder.getStringAttr(input.name));
  std::vector<Output> outputs = body(traced.arguments());
  if (outputs.empty())
    throw Error(fmt::format("define '{}': the function returns nothing", name));
  std::vector<Tensor> results;
  for (const Output &output : outputs)
    results.push_back(output.value);
  traced.finish(results, fmt::format("define '{}'", name));
  for (auto [index, output] : llvm::enumerate(outputs))
    if (!output.name.empty())
      traced.function.setResultAttr(
          index, mlir::tessel::TesselDialect::kNameAttrName,
          state.builder.getStringAttr(output.name));
}

Tensor Model::parameter(const std::string &name, const Dims &dims,
                        Initializer init, DType dtype,
                        std::optional<int64_t> seed) {
  ModelState &state = *impl;
  std::string what = fmt::format("parameter '{}'", name);
  state.currentBody(what);
  if (name.empty())
    throw Error("parameter: a parameter needs a name");
  if (init.scale < 0)
    throw Error(fmt::format("{}: the initializer's scale {} is negative",
                            what, init.scale));
  auto kind = static_cast<mlir::tessel::InitKind>(init.kind);
  Operation *op = mlir::tessel::ParameterOp::create(
      state.builder, state.location, state.tensorType(dims, dtype, what),
      state.builder.getStringAttr(name),
      mlir::tessel::InitKindAttr::get(&state.context, kind),
      state.builder.getF64FloatAttr(init.scale),
      state.builder.getI64IntegerAttr(seed ? *seed : seedFromName(name)),
      /*global_type=*/TypeAttr());
  return state.finish(op, what);
}

Tensor Model::buffer(const std::string &name, const Dims &dims,
                     Initializer init, DType dtype) {
  ModelState &state = *impl;
  std::string what = fmt::format("buffer '{}'", name);
  state.currentBody(what);
  if (name.empty())
    throw Error("buffer: a buffer needs a name");
  auto kind = static_cast<mlir::tessel::InitKind>(init.kind);
  auto op = mlir::tessel::ParameterOp::create(
      state.builder, state.location, state.tensorType(dims, dtype, what),
      state.builder.getStringAttr(name),
      mlir::tessel::InitKindAttr::get(&state.context, kind),
      state.builder.getF64FloatAttr(init.scale),
      state.builder.getI64IntegerAttr(seedFromName(name)),
      /*global_type=*/TypeAttr());
  op.setBuffer(true);
  return state.finish(op, what);
}

Tensor Model::updateBuffer(const Tensor &buffer, const Tensor &value) {
  ModelState &state = *impl;
  std::string what = "update_buffer";
  state.currentBody(what);
  mlir::Value target = state.operand(buffer, what);
  mlir::Value next = state.operand(value, what);
  if (target.getType() != next.getType())
    throw Error(fmt::format("update_buffer: the buffer is {} but the value {}",
                            buffer.str(), value.str()));
  Operation *op = mlir::tessel::UpdateBufferOp::create(
      state.builder, state.location, target.getType(), target, next);
  return state.finish(op, what);
}

std::vector<Tensor> Model::callLayer(const std::string &kind,
                                     const std::string &scope,
                                     const std::vector<Tensor> &args,
                                     const LayerBody &body) {
  ModelState &state = *impl;
  std::string what = scope.empty() ? fmt::format("layer {}", kind)
                                   : fmt::format("layer {} '{}'", kind, scope);
  state.currentBody(what);
  SmallVector<Value> operands;
  SmallVector<Type> argTypes;
  for (const Tensor &arg : args) {
    operands.push_back(state.operand(arg, what));
    argTypes.push_back(operands.back().getType());
  }

  // Trace the body into a new private function, then keep it only if no
  // function of this kind traced before prints the same.
  std::vector<std::pair<std::string, func::FuncOp>> &traced =
      state.layerFunctions[kind];
  std::string symbol = symbolFor(kind);
  for (int suffix = 1; SymbolTable::lookupSymbolIn(state.module.get(), symbol);
       ++suffix)
    symbol = fmt::format("{}_{}", symbolFor(kind), suffix);
  func::FuncOp callee;
  {
    TracedFunction function(state, symbol, argTypes, "private");
    std::vector<Tensor> results = body(function.arguments());
    if (results.empty())
      throw Error(fmt::format("{}: the layer returns nothing", what));
    function.finish(results, what);
    callee = function.function;
  }
  std::string print = fingerprint(callee);
  func::FuncOp same;
  for (auto &[otherPrint, other] : traced)
    if (otherPrint == print)
      same = other;
  if (same) {
    callee.erase();
    callee = same;
  } else {
    traced.emplace_back(print, callee);
  }

  auto call = func::CallOp::create(state.builder, state.location, callee,
                                   operands);
  if (!scope.empty())
    call->setAttr(mlir::tessel::TesselDialect::kScopeAttrName,
                  state.builder.getStringAttr(scope));
  std::vector<Tensor> results;
  for (Value result : call.getResults())
    results.push_back(state.wrap(result));
  return results;
}

void Model::name(const Tensor &tensor, const std::string &name) {
  Value value = impl->operand(tensor, fmt::format("name '{}'", name));
  Operation *op = value.getDefiningOp();
  if (!op)
    throw Error(fmt::format("name '{}': {} is a function argument, named by "
                            "its Input",
                            name, tensor.str()));
  op->setAttr(mlir::tessel::TesselDialect::kNameAttrName,
              impl->builder.getStringAttr(name));
}

void Model::setLocation(const std::string &file, int line) {
  impl->location = FileLineColLoc::get(&impl->context, file, line, 1);
}

std::string Model::str(bool locations) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  OpPrintingFlags flags;
  if (locations)
    flags.enableDebugInfo(/*enable=*/true, /*prettyForm=*/false);
  impl->module->print(os, flags);
  return text;
}

void Model::write(const std::string &path, bool locations) const {
  std::string temporary = fmt::format("{}.tmp{}", path, ::getpid());
  {
    std::ofstream out(temporary);
    out << str(locations);
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      throw Error(fmt::format("cannot write the model to {}", path));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    throw Error(fmt::format("cannot write the model to {}", path));
  }
}

} // namespace tessel
