//===- AssemblyHelpers.cpp - custom directives of the op syntax -----------===//

#include "dialect/AssemblyHelpers.h"

using namespace mlir;

ParseResult mlir::tessel::parseSameShapeTypes(OpAsmParser &parser,
                                              Type &inputType,
                                              Type &resultType) {
  if (parser.parseType(inputType))
    return failure();
  resultType = inputType;
  if (succeeded(parser.parseOptionalArrow()))
    return parser.parseType(resultType);
  return success();
}

void mlir::tessel::printSameShapeTypes(OpAsmPrinter &printer, Operation *,
                                       Type inputType, Type resultType) {
  printer << inputType;
  if (resultType != inputType)
    printer << " -> " << resultType;
}
