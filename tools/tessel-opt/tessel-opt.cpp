//===- tessel-opt.cpp - the tessel dialect and passes in MlirOptMain ------===//

#include "codegen/Passes.h"
#include "codegen/Pipeline.h"
#include "dialect/TesselDialect.h"
#include "layouts/InputFile.h"
#include "passes/Passes.h"
#include "tools/support/ModelFile.h"
#include "tools/support/OutputFile.h"
#include "tools/support/ToolVersion.h"

#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

/// Runs MlirOptMain into memory and writes `output` only when the run
/// succeeds: a failed run (a parse error, a pass error) leaves a good file
/// from an earlier run as it was. MLIR's file-based entry point opens and
/// removes its output file on an error, so the stream-based one is used.
static mlir::LogicalResult runKeepingOutput(llvm::StringRef input,
                                            llvm::StringRef output,
                                            mlir::DialectRegistry &registry) {
  if (std::optional<std::string> why =
          ::tessel::layout::notATextFile(input.str())) {
    llvm::errs() << input << ": " << *why << "\n";
    return mlir::failure();
  }
  std::string message;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(input, &message);
  if (!file) {
    llvm::errs() << message << "\n";
    return mlir::failure();
  }
  // MLIR's parser would overflow the stack on brackets nested too deep.
  if (const char *tooDeep = mlir::tessel::tooDeeplyNested(file->getBuffer())) {
    llvm::SourceMgr sourceMgr;
    sourceMgr.AddNewSourceBuffer(std::move(file), llvm::SMLoc());
    mlir::tessel::reportTooDeep(sourceMgr, tooDeep);
    return mlir::failure();
  }
  std::string text;
  llvm::raw_string_ostream stream(text);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (mlir::failed(
          mlir::MlirOptMain(stream, std::move(file), registry, config)))
    return mlir::failure();
  // A file is replaced through a temporary file beside it, so that a write
  // that fails (a full disk) is reported and leaves the old file.
  if (output != "-")
    return mlir::success(mlir::tessel::writeFileAtomically(
        "tessel-opt", output, [&](llvm::raw_ostream &os) { os << text; }));
  std::unique_ptr<llvm::ToolOutputFile> out =
      mlir::openOutputFile(output, &message);
  if (!out) {
    llvm::errs() << message << "\n";
    return mlir::failure();
  }
  out->os() << text;
  out->keep();
  return mlir::success();
}

int main(int argc, char **argv) {
  mlir::registerTransformsPasses();
  mlir::tessel::registerTesselPasses();
  mlir::tessel::registerTesselCodegenPasses();
  // `tessel compile`'s whole pipeline, as
  // --pass-pipeline='builtin.module(tessel-compile{...})'.
  mlir::tessel::registerCompilePipeline();
  mlir::tessel::setToolVersionPrinter("tessel-opt");
  mlir::DialectRegistry registry;
  registry.insert<mlir::tessel::TesselDialect, mlir::func::FuncDialect,
                  mlir::LLVM::LLVMDialect>();
  // Upstream's --inline needs func's inliner interface beside tessel's.
  mlir::func::registerInlinerExtension(registry);
  auto [input, output] = mlir::registerAndParseCLIOptions(
      argc, argv, "tessel optimizer driver\n", registry);
  return mlir::asMainReturnCode(
      runKeepingOutput(input, output, registry));
}
