//===- ElementTypes.cpp - change the precision of a program ---------------===//

#include "passes/ElementTypes.h"

#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::tessel;

namespace {

Type retyped(Type type, FloatType from, FloatType to) {
  auto tensor = dyn_cast<NamedTensorType>(type);
  if (!tensor || tensor.getElementType() != from)
    return type;
  return tensor.withElementType(to);
}

/// A constant's value with `from` elements converted to `to`.
Attribute retyped(Attribute value, FloatType from, FloatType to) {
  if (auto floatValue = dyn_cast<FloatAttr>(value))
    return floatValue.getType() == from
               ? FloatAttr::get(to, floatValue.getValueAsDouble())
               : value;
  auto dense = dyn_cast<DenseFPElementsAttr>(value);
  if (!dense || dense.getElementType() != from)
    return value;
  SmallVector<APFloat> values;
  for (APFloat element : dense.getValues<APFloat>()) {
    bool losesInfo = false;
    element.convert(to.getFloatSemantics(), APFloat::rmNearestTiesToEven,
                    &losesInfo);
    values.push_back(element);
  }
  auto type = RankedTensorType::get(dense.getType().getShape(), to);
  return DenseElementsAttr::get(type, values);
}

} // namespace

void mlir::tessel::retypeFloats(Operation *root, FloatType from, FloatType to) {
  root->walk([&](Operation *op) {
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument argument : block.getArguments())
          argument.setType(retyped(argument.getType(), from, to));
    for (OpResult result : op->getResults())
      result.setType(retyped(result.getType(), from, to));
    if (auto constant = dyn_cast<ConstantOp>(op))
      constant.setValueAttr(retyped(constant.getValue(), from, to));
    if (auto func = dyn_cast<func::FuncOp>(op)) {
      SmallVector<Type> inputs, results;
      for (Type type : func.getArgumentTypes())
        inputs.push_back(retyped(type, from, to));
      for (Type type : func.getResultTypes())
        results.push_back(retyped(type, from, to));
      func.setFunctionType(
          FunctionType::get(func.getContext(), inputs, results));
    }
  });
}

func::FuncOp mlir::tessel::createMixedPrecisionCopy(func::FuncOp lossFunction,
                                                    FloatType computeType,
                                                    StringRef name) {
  OpBuilder builder(lossFunction);
  builder.setInsertionPointAfter(lossFunction);
  auto copy = cast<func::FuncOp>(builder.clone(*lossFunction));
  copy.setSymName(name);
  FloatType master = builder.getF32Type();
  retypeFloats(copy, master, computeType);

  // Every input of the computation, an argument or a parameter, stays in
  // the master precision and is cast where it is used.
  Block &body = copy.getBody().front();
  auto castUses = [&](Value input, Location loc) {
    Type narrow = input.getType();
    Type wide = retyped(narrow, computeType, master);
    if (wide == narrow)
      return;
    input.setType(wide);
    auto cast = CastOp::create(builder, loc, narrow, input);
    input.replaceAllUsesExcept(cast, cast);
  };
  builder.setInsertionPointToStart(&body);
  for (BlockArgument argument : body.getArguments())
    castUses(argument, copy.getLoc());
  for (ParameterOp parameter :
       llvm::make_early_inc_range(body.getOps<ParameterOp>())) {
    builder.setInsertionPointAfter(parameter);
    castUses(parameter.getResult(), parameter.getLoc());
  }
  auto ret = cast<func::ReturnOp>(body.getTerminator());
  builder.setInsertionPoint(ret);
  for (OpOperand &result : ret->getOpOperands()) {
    Type wide = retyped(result.get().getType(), computeType, master);
    if (wide != result.get().getType())
      result.set(CastOp::create(builder, ret.getLoc(), wide, result.get()));
  }
  copy.setFunctionType(
      builder.getFunctionType(body.getArgumentTypes(), ret.getOperandTypes()));
  return copy;
}
