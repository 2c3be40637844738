//===- ModelFile.cpp - what the tessel tools share ------------------------===//

#include "tools/support/ModelFile.h"

#include "layouts/InputFile.h"
#include "passes/InlineLayers.h"
#include "passes/Passes.h"

#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::tessel;

const char *mlir::tessel::tooDeeplyNested(StringRef text, int limit) {
  int depth = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
    } else if (text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      if (i == StringRef::npos)
        return nullptr;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      if (++depth > limit)
        return text.data() + i;
    } else if (c == ')' || c == ']' || c == '}' ||
               (c == '>' && (i == 0 || text[i - 1] != '-'))) {
      depth = std::max(0, depth - 1);
    }
  }
  return nullptr;
}

void mlir::tessel::reportTooDeep(llvm::SourceMgr &sourceMgr,
                                 const char *where) {
  sourceMgr.PrintMessage(
      llvm::SMLoc::getFromPointer(where), llvm::SourceMgr::DK_Error,
      "brackets nest more than " + std::to_string(kMaxModelNesting) +
          " deep here, more than tessel reads");
}

static DialectRegistry toolDialects() {
  DialectRegistry registry;
  registry.insert<TesselDialect, func::FuncDialect>();
  return registry;
}

ModelFile::ModelFile(StringRef path, bool inlineLayers)
    : path(path.str()), ctx(toolDialects()), diagnostics(sourceMgr, &ctx) {
  // Errors point at the op by file:line:col; a dump of it adds only noise.
  ctx.printOpOnDiagnostic(false);
  if (std::optional<std::string> why =
          ::tessel::layout::notATextFile(path.str())) {
    llvm::errs() << path << ": cannot read the model: " << *why << "\n";
    return;
  }
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> file =
      llvm::MemoryBuffer::getFileOrSTDIN(path);
  if (!file) {
    llvm::errs() << path
                 << ": cannot read the model: " << file.getError().message()
                 << "\n";
    return;
  }
  const char *tooDeep = tooDeeplyNested((*file)->getBuffer());
  sourceMgr.AddNewSourceBuffer(std::move(*file), llvm::SMLoc());
  if (tooDeep) {
    reportTooDeep(sourceMgr, tooDeep);
    return;
  }
  moduleRef = parseSourceFile<ModuleOp>(sourceMgr, ParserConfig(&ctx));
  // Layers are functions: a model that calls them is read with its calls
  // inlined and scoped (tessel-inline-layers), as `tessel compile` reads it.
  if (moduleRef && inlineLayers && hasCalls(*moduleRef)) {
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
