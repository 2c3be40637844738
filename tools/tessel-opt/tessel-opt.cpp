//===- tessel-opt.cpp - the tessel dialect and passes in MlirOptMain ------===//

#include "codegen/Passes.h"
#include "dialect/TesselDialect.h"
#include "passes/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

/// Runs MlirOptMain with its output in a temporary file beside `output`,
/// renamed over it only when the run succeeds. MlirOptMain opens (and so
/// empties) its output file before it parses the input and deletes it on an
/// error, which would destroy a good file from an earlier run; `-` and
/// anything that is not a regular file (/dev/null) are written directly.
static mlir::LogicalResult runKeepingOutput(int argc, char **argv,
                                            llvm::StringRef input,
                                            llvm::StringRef output,
                                            mlir::DialectRegistry &registry) {
  namespace fs = llvm::sys::fs;
  if (output == "-" || (fs::exists(output) && !fs::is_regular_file(output)))
    return mlir::MlirOptMain(argc, argv, input, output, registry);
  llvm::SmallString<128> temporary;
  if (std::error_code error =
          fs::createUniqueFile(output + ".tmp-%%%%%%", temporary)) {
    llvm::errs() << "error: cannot write beside " << output << ": "
                 << error.message() << "\n";
    return mlir::failure();
  }
  mlir::LogicalResult result =
      mlir::MlirOptMain(argc, argv, input, temporary, registry);
  std::error_code renamed;
  if (mlir::succeeded(result) && !(renamed = fs::rename(temporary, output)))
    return mlir::success();
  if (renamed)
    llvm::errs() << "error: cannot write " << output << ": "
                 << renamed.message() << "\n";
  fs::remove(temporary);
  return mlir::failure();
}

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::tessel::registerTesselPasses();
  mlir::tessel::registerTesselCodegenPasses();
  mlir::DialectRegistry registry;
  registry.insert<mlir::tessel::TesselDialect, mlir::func::FuncDialect,
                  mlir::LLVM::LLVMDialect>();
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "tessel optimizer driver\n", registry);
  return mlir::asMainReturnCode(
      runKeepingOutput(argc, argv, input, output, registry));
}
