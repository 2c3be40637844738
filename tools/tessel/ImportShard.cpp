//===- ImportShard.cpp - tessel import-shard: upstream MLIR as a model ----===//
//
// `import-shard` reads an upstream MLIR program annotated with `shard.grid`
// and `shard.shard` (linalg on tensors, as `tessel export-shard` writes or
// as an MLIR user writes by hand) and writes a tessel model with named
// dimensions and a layout file that splits it as the annotations do
// (tools/tessel/ShardImport.cpp has the translation).
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/Commands.h"
#include "tools/tessel/ShardImport.h"

#include "dialect/TesselDialect.h"
#include "tools/support/ModelFile.h"
#include "tools/support/OutputFile.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SourceMgr.h"

using namespace mlir;
using namespace mlir::tessel;
namespace cl = llvm::cl;

cl::SubCommand mlir::tessel::importShardCommand(
    "import-shard", "read an upstream MLIR program with shard annotations as "
                    "a tessel model and a layout file");

namespace {

cl::opt<std::string> inputPath(cl::Positional, cl::desc("<upstream.mlir>"),
                               cl::Required, cl::sub(importShardCommand));
cl::opt<std::string> outputPath("o", cl::desc("the tessel model to write"),
                                cl::value_desc("path"), cl::Required,
                                cl::sub(importShardCommand));
cl::opt<std::string> layoutOutPath("layout-out",
                                   cl::desc("the layout file to write"),
                                   cl::value_desc("path"), cl::Required,
                                   cl::sub(importShardCommand));
cl::opt<std::string> functionName("function",
                                  cl::desc("function to import (default: the "
                                           "first)"),
                                  cl::sub(importShardCommand));

/// The dialects an upstream program may use: tosa too, so that its ops are
/// read and named in the error rather than refused by the parser.
DialectRegistry upstreamDialects() {
  DialectRegistry registry;
  registry.insert<func::FuncDialect, linalg::LinalgDialect,
                  tensor::TensorDialect, arith::ArithDialect, math::MathDialect,
                  shard::ShardDialect, tosa::TosaDialect>();
  return registry;
}

/// Whether two paths, existing or not, name one file.
bool sameFile(StringRef a, StringRef b) {
  auto normal = [](StringRef path) {
    SmallString<256> absolute(path);
    llvm::sys::fs::make_absolute(absolute);
    llvm::sys::path::remove_dots(absolute, /*remove_dot_dot=*/true);
    return std::string(absolute);
  };
  return normal(a) == normal(b) || llvm::sys::fs::equivalent(a, b);
}

} // namespace

int mlir::tessel::runImportShard() {
  if (outputIsAnInput("tessel import-shard", outputPath,
                      {{inputPath, "the upstream program"}}) ||
      outputIsAnInput("tessel import-shard", layoutOutPath,
                      {{inputPath, "the upstream program"},
                       {outputPath, "the model (-o)"}}))
    return 1;
  if (sameFile(outputPath, layoutOutPath)) {
    llvm::errs() << "tessel import-shard: -o and --layout-out name one file ("
                 << outputPath << ")\n";
    return 1;
  }

  MLIRContext upstreamContext(upstreamDialects());
  upstreamContext.printOpOnDiagnostic(false);
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &upstreamContext);
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(inputPath);
  if (!file) {
    llvm::errs() << inputPath
                 << ": cannot read the program: " << file.getError().message()
                 << "\n";
    return 1;
  }
  const char *tooDeep = tooDeeplyNested((*file)->getBuffer());
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  if (tooDeep) {
    reportTooDeep(sourceMgr, tooDeep);
    return 1;
  }
  OwningOpRef<ModuleOp> upstream =
      parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&upstreamContext));
  if (!upstream)
    return 1;
  func::FuncOp function;
  for (auto candidate : upstream->getOps<func::FuncOp>())
    if (functionName.empty() ? !function
                             : candidate.getSymName() == functionName)
      function = candidate;
  if (!function) {
    llvm::errs() << inputPath << ": no function"
                 << (functionName.empty() ? "" : " '" + functionName + "'")
                 << "\n";
    return 1;
  }
  if (function.isExternal()) {
    function.emitError("tessel import-shard: the function has no body");
    return 1;
  }

  MLIRContext tesselContext;
  tesselContext.loadDialect<TesselDialect, func::FuncDialect>();
  SourceMgrDiagnosticHandler tesselDiagnostics(sourceMgr, &tesselContext);
  OwningOpRef<ModuleOp> model =
      ModuleOp::create(UnknownLoc::get(&tesselContext));
  FailureOr<ImportedLayout> layout =
      importShardFunction(*upstream, function, *model);
  if (failed(layout))
    return 1;
  // The translation builds only valid tessel ops; a failure here is a bug in
  // it, reported at the upstream location the op came from.
  if (failed(verify(*model)))
    return 1;

  std::string source = llvm::sys::path::filename(inputPath).str();
  std::string layoutName = llvm::sys::path::filename(layoutOutPath).str();
  if (!writeFileAtomically(
          "tessel import-shard", outputPath, [&](raw_ostream &os) {
            os << "// Imported by tessel import-shard from " << source
               << "; its layout is " << layoutName << ".\n";
            for (Operation &op : *model->getBody()) {
              op.print(os);
              os << "\n";
            }
          }))
    return 1;
  std::string header = "# Imported by tessel import-shard from " + source +
                       " (grid axes in the grid's order).\n";
  return writeFileAtomically(
             "tessel import-shard", layoutOutPath,
             [&](raw_ostream &os) { os << layout->yaml(header); })
             ? 0
             : 1;
}
