//===- AssemblyHelpers.cpp - custom directives of the op syntax -----------===//

#include "dialect/AssemblyHelpers.h"

#include "mlir/IR/Builders.h"

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

ParseResult mlir::tessel::parseNamedSizes(AsmParser &parser,
                                          SmallVectorImpl<StringAttr> &names,
                                          SmallVectorImpl<int64_t> &sizes) {
  auto parseOne = [&]() -> ParseResult {
    std::string name;
    int64_t size = 0;
    if (parser.parseKeywordOrString(&name) || parser.parseColon() ||
        parser.parseInteger(size))
      return failure();
    names.push_back(parser.getBuilder().getStringAttr(name));
    sizes.push_back(size);
    return success();
  };
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseOne);
}

void mlir::tessel::printNamedSizes(AsmPrinter &printer,
                                   ArrayRef<StringAttr> names,
                                   ArrayRef<int64_t> sizes) {
  printer << "[";
  for (auto [i, name, size] : llvm::enumerate(names, sizes)) {
    if (i)
      printer << ", ";
    printer.printKeywordOrString(name.getValue());
    printer << ":" << size;
  }
  printer << "]";
}
