//===- AssemblyHelpers.h - custom directives of the op syntax ----*- C++
//-*-===//

#ifndef TESSEL_DIALECT_ASSEMBLYHELPERS_H
#define TESSEL_DIALECT_ASSEMBLYHELPERS_H

#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"

namespace mlir::tessel {

/// Parses the types of an op whose result has its operand's dimensions:
/// `T` when both types are equal, `T -> U` when they differ (in layout).
ParseResult parseSameShapeTypes(OpAsmParser &parser, Type &inputType,
                                Type &resultType);

/// Prints what parseSameShapeTypes parses.
void printSameShapeTypes(OpAsmPrinter &printer, Operation *op, Type inputType,
                         Type resultType);

/// Parses `[name:size, ...]`, the dimension list of a tensor type and the
/// axis list of a mesh.
ParseResult parseNamedSizes(AsmParser &parser,
                            SmallVectorImpl<StringAttr> &names,
                            SmallVectorImpl<int64_t> &sizes);

/// Prints what parseNamedSizes parses.
void printNamedSizes(AsmPrinter &printer, ArrayRef<StringAttr> names,
                     ArrayRef<int64_t> sizes);

} // namespace mlir::tessel

#endif // TESSEL_DIALECT_ASSEMBLYHELPERS_H
