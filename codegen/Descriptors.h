//===- Descriptors.h - what the runtime is told about each op ---*- C++ -*-===//
//
// The JSON that tessel-lower-to-runtime writes into a program for every op
// (its descriptor) and for the whole program (its metadata). The format is
// the contract with the runtime, documented in
// runtime/include/tessel/runtime/program.h.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_CODEGEN_DESCRIPTORS_H
#define TESSEL_CODEGEN_DESCRIPTORS_H

#include "dialect/TesselDialect.h"

#include "llvm/Support/JSON.h"

namespace mlir::tessel {

/// The name of a function's compiled symbol: tessel_fn_<name>.
std::string compiledFunctionSymbol(StringRef functionName);

/// {"dims": [...], "shape": [...], "type": "f32"} of `type` as it is (the
/// local type in a partitioned function).
llvm::json::Object describeTensor(NamedTensorType type);

/// The descriptor of one op: name, location, operand and result types,
/// attributes.
llvm::json::Object describeOp(Operation *op);

/// The program's metadata: its mesh and, for every function, the name,
/// global and local type and layout of each argument and result.
llvm::json::Object describeProgram(ModuleOp module);

} // namespace mlir::tessel

#endif // TESSEL_CODEGEN_DESCRIPTORS_H
