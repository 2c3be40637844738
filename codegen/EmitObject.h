//===- EmitObject.h - LLVM IR and object files of a program -----*- C++ -*-===//

#ifndef TESSEL_CODEGEN_EMITOBJECT_H
#define TESSEL_CODEGEN_EMITOBJECT_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/IR/Module.h"

#include <memory>

namespace mlir::tessel {

/// Translates a module of LLVM dialect ops (after tessel-lower-to-runtime)
/// to LLVM IR for the host, or returns null after reporting an error.
std::unique_ptr<llvm::Module> translateToLLVMIR(ModuleOp module,
                                                llvm::LLVMContext &context);

/// Optimises `module` for the host CPU and writes it as an object file to
/// `path`. Returns failure with `error` set.
LogicalResult emitObjectFile(llvm::Module &module, StringRef path,
                             std::string &error);

} // namespace mlir::tessel

#endif // TESSEL_CODEGEN_EMITOBJECT_H
