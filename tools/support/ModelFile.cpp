//===- ModelFile.cpp - what the tessel tools share ------------------------===//

#include "tools/support/ModelFile.h"

#include "mlir/Parser/Parser.h"

using namespace mlir;
using namespace mlir::tessel;

static DialectRegistry toolDialects() {
  DialectRegistry registry;
  registry.insert<TesselDialect, func::FuncDialect>();
  return registry;
}

ModelFile::ModelFile(StringRef path)
    : path(path.str()), ctx(toolDialects()), diagnostics(sourceMgr, &ctx) {
  // Errors point at the op by file:line:col; a dump of it adds only noise.
  ctx.printOpOnDiagnostic(false);
  moduleRef = parseSourceFile<ModuleOp>(path, sourceMgr, &ctx);
}

func::FuncOp ModelFile::function(StringRef name) {
  func::FuncOp found;
  for (auto candidate : module().getOps<func::FuncOp>())
    if (name.empty() ? !found : candidate.getSymName() == name)
      found = candidate;
  if (!found)
    llvm::errs() << path << ": no function '" << name << "'\n";
  return found;
}
