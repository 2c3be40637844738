//===- package-opt.cpp - an opt tool of a tessel user's -------------------===//
//
// What an MLIR user builds against an installed tessel: MLIR's opt driver
// with tessel's dialect, its passes and the tessel-compile pipeline
// registered beside MLIR's own transforms. Headers come from the install
// prefix (include/tessel), libraries from Tessel:: targets.
//
//===----------------------------------------------------------------------===//

#include "codegen/Passes.h"
#include "codegen/Pipeline.h"
#include "dialect/TesselDialect.h"
#include "passes/Passes.h"
#include "tessel/Version.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::tessel::registerTesselPasses();
  mlir::tessel::registerTesselCodegenPasses();
  mlir::tessel::registerCompilePipeline();
  mlir::DialectRegistry registry;
  registry.insert<mlir::tessel::TesselDialect, mlir::func::FuncDialect,
                  mlir::LLVM::LLVMDialect>();
  mlir::func::registerInlinerExtension(registry);
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "an opt tool built on tessel " TESSEL_VERSION "\n",
      registry));
}
