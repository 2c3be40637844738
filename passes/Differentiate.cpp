//===- Differentiate.cpp - reverse-mode differentiation of a loss ---------===//
//
// The forward ops are copied into the new function with each parameter op
// replaced by an argument; then, from d loss / d loss = 1, every op whose
// result the gradient reaches builds its operands' gradients through its
// DifferentiableOpInterface, last op first. A value used several times sums
// the gradients of its uses. Only values that depend on a parameter or a
// float argument ("active" values) take part, so nothing is built for
// integer data, masks or constants.
//
//===----------------------------------------------------------------------===//

#include "passes/Differentiate.h"

#include "dialect/MeshConversion.h"
#include "dialect/TensorBuilder.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {
constexpr StringLiteral kNameAttr = "tessel.name";

bool isFloatTensor(Value value) {
  auto type = dyn_cast<NamedTensorType>(value.getType());
  return type && isa<FloatType>(type.getElementType());
}
} // namespace

SmallVector<ParameterOp> mlir::tessel::parametersOf(func::FuncOp func) {
  SmallVector<ParameterOp> parameters;
  func.walk([&](ParameterOp op) { parameters.push_back(op); });
  return parameters;
}

void mlir::tessel::eraseDeadOps(func::FuncOp func) {
  Block &body = func.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    if (isOpTriviallyDead(&op))
      op.erase();
}

void mlir::tessel::moveParametersToArguments(func::FuncOp func) {
  OpBuilder builder(func.getContext());
  for (auto [index, parameter] : llvm::enumerate(parametersOf(func))) {
    DictionaryAttr attrs = builder.getDictionaryAttr(
        {builder.getNamedAttr(kNameAttr,
                              builder.getStringAttr(parameter.getName())),
         builder.getNamedAttr(kRoleAttrName,
                              builder.getStringAttr(parameter.getBuffer()
                                                        ? "buffer"
                                                        : "parameter"))});
    (void)func.insertArgument(index, parameter.getType(), attrs,
                              parameter.getLoc());
    parameter.replaceAllUsesWith(func.getArgument(index));
    parameter.erase();
  }
  eraseBufferUpdates(func);
}

void mlir::tessel::eraseBufferUpdates(func::FuncOp func) {
  func.walk([](UpdateBufferOp update) {
    update.replaceAllUsesWith(update.getValue());
    update.erase();
  });
  eraseDeadOps(func);
}

LogicalResult mlir::tessel::verifyLossFunction(func::FuncOp func) {
  if (func.isExternal())
    return func.emitError() << "function '" << func.getSymName()
                            << "' has no body to differentiate";
  if (func.getNumResults() != 1)
    return func.emitError() << "function '" << func.getSymName()
                            << "' must return one scalar loss, not "
                            << func.getNumResults() << " results";
  auto loss = dyn_cast<NamedTensorType>(func.getResultTypes()[0]);
  if (!loss || loss.getRank() != 0 || !isa<FloatType>(loss.getElementType()))
    return func.emitError() << "function '" << func.getSymName()
                            << "' must return a scalar float loss, not "
                            << func.getResultTypes()[0];
  WalkResult laidOut = func.walk([&](Operation *op) {
    for (Type type : op->getResultTypes())
      if (auto tensor = dyn_cast<NamedTensorType>(type);
          tensor && tensor.getLayout())
        return WalkResult::interrupt();
    return WalkResult::advance();
  });
  bool argumentLaidOut = llvm::any_of(func.getArgumentTypes(), [](Type type) {
    auto tensor = dyn_cast<NamedTensorType>(type);
    return tensor && tensor.getLayout();
  });
  if (laidOut.wasInterrupted() || argumentLaidOut)
    return func.emitError()
           << "function '" << func.getSymName()
           << "' already has layouts: differentiate before tessel-apply-layout";
  return success();
}

namespace {

/// Builds one gradient function.
class Differentiator {
public:
  Differentiator(func::FuncOp lossFunction, bool withGradients,
                 StringRef seedName)
      : source(lossFunction), withGradients(withGradients), seedName(seedName),
        builder(lossFunction.getContext()) {}

  FailureOr<func::FuncOp> run(StringRef name);

private:
  /// Copies the forward ops into `target`, parameters becoming arguments.
  void copyForward(Block &body);
  /// Marks the values that depend on an argument of float type.
  void findActiveValues(Block &body);
  /// Adds `gradient` to the gradient of `value`.
  void accumulate(Value value, Value gradient, Location loc);
  /// Builds the backward ops of the copied body, last op first.
  LogicalResult propagate(Block &body);
  /// Returns the gradient of `value`, zeros when nothing reached it.
  Value gradientOf(Value value, Location loc);

  func::FuncOp source;
  bool withGradients;
  /// The name of the argument the backward pass starts from; empty for 1.
  StringRef seedName;
  OpBuilder builder;
  SmallVector<ParameterOp> parameters;
  IRMapping mapping;
  llvm::DenseSet<Value> active;
  llvm::DenseMap<Value, Value> gradients;
};

void Differentiator::copyForward(Block &body) {
  builder.setInsertionPointToEnd(&body);
  for (auto [index, parameter] : llvm::enumerate(parameters))
    mapping.map(parameter.getResult(), body.getArgument(index));
  for (auto [index, argument] : llvm::enumerate(source.getArguments()))
    mapping.map(argument, body.getArgument(parameters.size() + index));
  for (Operation &op : source.getBody().front().without_terminator())
    if (!isa<ParameterOp>(op))
      builder.clone(op, mapping);
}

void Differentiator::findActiveValues(Block &body) {
  for (BlockArgument argument : body.getArguments())
    if (isFloatTensor(argument))
      active.insert(argument);
  for (Operation &op : body)
    if (llvm::any_of(op.getOperands(),
                     [&](Value operand) { return active.contains(operand); }))
      for (Value result : op.getResults())
        if (isFloatTensor(result))
          active.insert(result);
}

void Differentiator::accumulate(Value value, Value gradient, Location loc) {
  auto [it, inserted] = gradients.try_emplace(value, gradient);
  if (!inserted)
    it->second = TensorBuilder(builder, loc).add(it->second, gradient);
}

LogicalResult Differentiator::propagate(Block &body) {
  SmallVector<Operation *> forward;
  for (Operation &op : body)
    forward.push_back(&op);
  for (Operation *op : llvm::reverse(forward)) {
    if (op->getNumResults() != 1)
      continue;
    auto it = gradients.find(op->getResult(0));
    if (it == gradients.end())
      continue;
    Value resultGradient = it->second;
    bool needed = llvm::any_of(op->getOperands(), [&](Value operand) {
      return active.contains(operand);
    });
    if (!needed)
      continue;
    auto differentiable = dyn_cast<DifferentiableOpInterface>(op);
    if (!differentiable)
      return op->emitError() << "tessel-autodiff cannot differentiate '"
                             << op->getName() << "'";
    SmallVector<Value> operandGradients;
    differentiable.buildGradients(builder, resultGradient, operandGradients);
    for (auto [operand, gradient] :
         llvm::zip(op->getOperands(), operandGradients))
      if (gradient && active.contains(operand))
        accumulate(operand, gradient, op->getLoc());
  }
  return success();
}

Value Differentiator::gradientOf(Value value, Location loc) {
  if (Value gradient = gradients.lookup(value))
    return gradient;
  // The loss does not depend on this value.
  auto type = cast<NamedTensorType>(value.getType());
  return ConstantOp::create(builder, loc, type,
                            builder.getFloatAttr(type.getElementType(), 0.0));
}

FailureOr<func::FuncOp> Differentiator::run(StringRef name) {
  parameters = parametersOf(source);
  MLIRContext *context = source.getContext();
  Location loc = source.getLoc();

  SmallVector<Type> argumentTypes;
  SmallVector<DictionaryAttr> argumentAttrs;
  auto named = [&](StringRef tensorName) {
    return DictionaryAttr::get(
        context,
        {builder.getNamedAttr(kNameAttr, builder.getStringAttr(tensorName))});
  };
  for (ParameterOp parameter : parameters) {
    argumentTypes.push_back(parameter.getType());
    argumentAttrs.push_back(DictionaryAttr::get(
        context, {builder.getNamedAttr(
                      kNameAttr, builder.getStringAttr(parameter.getName())),
                  builder.getNamedAttr(
                      kRoleAttrName,
                      builder.getStringAttr(parameter.getBuffer()
                                                ? "buffer"
                                                : "parameter"))}));
  }
  for (auto [index, type] : llvm::enumerate(source.getArgumentTypes())) {
    argumentTypes.push_back(type);
    argumentAttrs.push_back(source.getArgAttrDict(index)
                                ? source.getArgAttrDict(index)
                                : DictionaryAttr::get(context));
  }
  if (withGradients && !seedName.empty()) {
    argumentTypes.push_back(source.getResultTypes().front());
    argumentAttrs.push_back(named(seedName));
  }

  builder.setInsertionPointAfter(source);
  auto func = func::FuncOp::create(builder, loc, name,
                                   builder.getFunctionType(argumentTypes, {}));
  func.setAllArgAttrs(argumentAttrs);
  Block *body = func.addEntryBlock();
  copyForward(*body);
  Value loss =
      mapping.lookup(source.getBody().front().getTerminator()->getOperand(0));

  SmallVector<Value> results = {loss};
  SmallVector<DictionaryAttr> resultAttrs = {named("loss")};
  if (withGradients) {
    findActiveValues(*body);
    builder.setInsertionPointToEnd(body);
    gradients[loss] =
        seedName.empty()
            ? Value(ConstantOp::create(
                  builder, loc, loss.getType(),
                  builder.getFloatAttr(tensorTypeOf(loss).getElementType(),
                                       1.0)))
            : body->getArguments().back();
    if (failed(propagate(*body))) {
      func.erase();
      return failure();
    }
    for (auto [index, parameter] : llvm::enumerate(parameters)) {
      results.push_back(gradientOf(body->getArgument(index), loc));
      resultAttrs.push_back(named((parameter.getName() + ".gradient").str()));
    }
    for (unsigned index = 0; index < source.getNumArguments(); ++index) {
      Value argument = body->getArgument(parameters.size() + index);
      if (!isFloatTensor(argument))
        continue;
      results.push_back(gradientOf(argument, loc));
      StringRef argumentName = getTensorName(source.getArgument(index));
      resultAttrs.push_back(
          named((argumentName.empty() ? "arg" + std::to_string(index)
                                      : argumentName.str()) +
                ".gradient"));
    }
  }
  builder.setInsertionPointToEnd(body);
  func::ReturnOp::create(builder, loc, results);
  func.setFunctionType(
      builder.getFunctionType(argumentTypes, ValueRange(results).getTypes()));
  func.setAllResultAttrs(resultAttrs);

  // Gradients built for operands that need none (the data's, say) die here.
  eraseDeadOps(func);
  return func;
}

} // namespace

FailureOr<func::FuncOp>
mlir::tessel::createGradientFunction(func::FuncOp lossFunction, StringRef name,
                                     bool withGradients, StringRef seedName) {
  if (failed(verifyLossFunction(lossFunction)))
    return failure();
  return Differentiator(lossFunction, withGradients, seedName).run(name);
}
