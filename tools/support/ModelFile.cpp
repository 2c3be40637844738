//===- ModelFile.cpp - what the tessel tools share ------------------------===//

#include "tools/support/ModelFile.h"

#include "passes/InlineLayers.h"
#include "passes/Passes.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

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
  // Layers are functions: a model that calls them is read with its calls
  // inlined and scoped (tessel-inline-layers), as `tessel compile` reads it.
  if (moduleRef && hasCalls(*moduleRef)) {
    PassManager pm(&ctx);
    pm.addPass(createTesselInlineLayers());
    if (failed(pm.run(*moduleRef)))
      moduleRef = nullptr;
  }
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
