//===- DimensionChecks.cpp - verifier helpers over named dims -------------===//

#include "dialect/DimensionChecks.h"

#include "llvm/ADT/DenseSet.h"

using namespace mlir;
using namespace mlir::tessel;

LogicalResult mlir::tessel::verifyBroadcastByName(
    Operation *op, ArrayRef<NamedTensorType> operands, NamedTensorType result) {
  llvm::SmallDenseSet<StringAttr> provided;
  for (auto [index, operand] : llvm::enumerate(operands)) {
    for (auto [name, size] :
         llvm::zip(operand.getDimNames(), operand.getShape())) {
      provided.insert(name);
      std::optional<int64_t> resultSize = result.getDimSize(name);
      if (!resultSize)
        return op->emitOpError()
               << "operand #" << index << " has dimension '" << name.getValue()
               << "', which the result does not have";
      if (*resultSize != size)
        return op->emitOpError()
               << "dimension '" << name.getValue() << "' has size " << size
               << " in operand #" << index << " but " << *resultSize
               << " in the result";
    }
  }
  for (StringAttr name : result.getDimNames())
    if (!provided.contains(name))
      return op->emitOpError() << "result dimension '" << name.getValue()
                               << "' does not come from any operand";
  return success();
}

LogicalResult mlir::tessel::verifySameShape(Operation *op,
                                            NamedTensorType input,
                                            NamedTensorType result) {
  if (!input.hasSameShapeAs(result))
    return op->emitOpError() << "result " << result
                             << " must have the dimensions and element type "
                                "of the operand "
                             << input;
  return success();
}

LogicalResult
mlir::tessel::verifySameElementType(Operation *op,
                                    ArrayRef<NamedTensorType> types) {
  for (NamedTensorType type : types.drop_front())
    if (type.getElementType() != types.front().getElementType())
      return op->emitOpError() << "expected one element type, got "
                               << types.front().getElementType() << " and "
                               << type.getElementType();
  return success();
}

LogicalResult mlir::tessel::verifyFloatElements(Operation *op,
                                                NamedTensorType type,
                                                StringRef what) {
  if (!isa<FloatType>(type.getElementType()))
    return op->emitOpError() << "expected " << what << " to hold floats, got "
                             << type.getElementType();
  return success();
}

LogicalResult mlir::tessel::verifyIntegerElements(Operation *op,
                                                  NamedTensorType type,
                                                  StringRef what) {
  if (!isa<IntegerType>(type.getElementType()))
    return op->emitOpError() << "expected " << what << " to hold integers, got "
                             << type.getElementType();
  return success();
}

LogicalResult mlir::tessel::verifyHasDim(Operation *op, NamedTensorType type,
                                         StringRef dim, StringRef what) {
  if (!type.hasDim(dim))
    return op->emitOpError() << what << " has no dimension '" << dim << "'";
  return success();
}

LogicalResult mlir::tessel::verifyDims(
    Operation *op, NamedTensorType type,
    ArrayRef<std::pair<StringAttr, int64_t>> expected, StringRef what) {
  for (auto [name, size] : expected) {
    std::optional<int64_t> actualSize = type.getDimSize(name.getValue());
    if (!actualSize)
      return op->emitOpError()
             << what << " is missing dimension '" << name.getValue() << "'";
    if (*actualSize != size)
      return op->emitOpError()
             << what << " dimension '" << name.getValue() << "' has size "
             << *actualSize << ", expected " << size;
  }
  if (type.getRank() != expected.size()) {
    for (StringAttr name : type.getDimNames())
      if (llvm::none_of(expected,
                        [&](auto pair) { return pair.first == name; }))
        return op->emitOpError() << what << " has unexpected dimension '"
                                 << name.getValue() << "'";
  }
  return success();
}

LogicalResult mlir::tessel::verifyResultDims(
    Operation *op, NamedTensorType result,
    ArrayRef<std::pair<StringAttr, int64_t>> expected) {
  return verifyDims(op, result, expected, "result");
}

SmallVector<std::pair<StringAttr, int64_t>>
mlir::tessel::dimsWithSize(NamedTensorType type, StringRef dim,
                           int64_t newSize) {
  SmallVector<std::pair<StringAttr, int64_t>> dims;
  for (auto [name, size] : llvm::zip(type.getDimNames(), type.getShape()))
    dims.push_back({name, name.getValue() == dim ? newSize : size});
  return dims;
}
