//===- Passes.h - tessel's code generation passes ---------------*- C++ -*-===//

#ifndef TESSEL_CODEGEN_PASSES_H
#define TESSEL_CODEGEN_PASSES_H

#include "dialect/TesselDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::tessel {

#define GEN_PASS_DECL
#include "codegen/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "codegen/Passes.h.inc"

} // namespace mlir::tessel

#endif // TESSEL_CODEGEN_PASSES_H
