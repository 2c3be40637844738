//===- EmitObject.cpp - LLVM IR and object files of a program -------------===//

#include "codegen/EmitObject.h"

#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

using namespace mlir;

std::unique_ptr<llvm::Module>
mlir::tessel::translateToLLVMIR(ModuleOp module, llvm::LLVMContext &context) {
  DialectRegistry registry;
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  module->getContext()->appendDialectRegistry(registry);
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, context, "tessel_program");
  if (llvmModule)
    llvmModule->setTargetTriple(
        llvm::Triple(llvm::sys::getDefaultTargetTriple()));
  return llvmModule;
}

LogicalResult mlir::tessel::emitObjectFile(llvm::Module &module, StringRef path,
                                           std::string &error) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  const llvm::Triple &triple = module.getTargetTriple();
  const llvm::Target *target =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!target)
    return failure();
  // Position independent, so that the object links into a PIE executable.
  // No backend optimisation: a program is one straight-line function of
  // runtime calls per entry point (tens of thousands of instructions in one
  // block for a deep model), which the optimising instruction selector and
  // register allocator take superlinear time over and cannot make faster to
  // run, since the time is spent inside the calls.
  llvm::TargetOptions targetOptions;
  std::unique_ptr<llvm::TargetMachine> machine(target->createTargetMachine(
      triple, "generic", "", targetOptions, llvm::Reloc::PIC_, std::nullopt,
      llvm::CodeGenOptLevel::None));
  module.setDataLayout(machine->createDataLayout());

  std::error_code code;
  llvm::ToolOutputFile out(path, code, llvm::sys::fs::OF_None);
  if (code) {
    error = path.str() + ": " + code.message();
    return failure();
  }
  llvm::legacy::PassManager passes;
  if (machine->addPassesToEmitFile(passes, out.os(), nullptr,
                                   llvm::CodeGenFileType::ObjectFile)) {
    error = "the host target cannot emit object files";
    return failure();
  }
  passes.run(module);
  // A write error (a full disk) is reported by name; left set, it would end
  // the process in the stream's destructor with "IO failure on output
  // stream" (the unkept file is removed either way).
  out.os().close();
  if (out.os().has_error()) {
    error = path.str() + ": " + out.os().error().message();
    out.os().clear_error();
    return failure();
  }
  out.keep();
  return success();
}
