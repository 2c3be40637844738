//===- ModelFile.h - what the tessel tools share -----------------*- C++
//-*-===//
//
// Reading a model file and choosing its function, the same way in every
// tool, with diagnostics that point at file:line:col.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_SUPPORT_MODELFILE_H
#define TESSEL_TOOLS_SUPPORT_MODELFILE_H

#include "dialect/TesselDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"

namespace mlir::tessel {

/// How deep brackets may nest in a model file. MLIR's parser recurses once
/// per level, so about 10,000 levels overflow the stack (a crash, not a
/// diagnostic); real models nest a few dozen deep.
constexpr int kMaxModelNesting = 1000;

/// Returns where brackets ((, [, {, <) first nest deeper than `limit` in
/// `text`, or null. Brackets in string literals and comments do not count,
/// nor the > of an arrow (->).
const char *tooDeeplyNested(StringRef text, int limit = kMaxModelNesting);

/// Reports, through `sourceMgr` (which holds the text), that brackets nest
/// too deep at `where`.
void reportTooDeep(llvm::SourceMgr &sourceMgr, const char *where);

/// A model file parsed in a context of its own that reports diagnostics
/// through a source manager.
class ModelFile {
public:
  /// Parses `path` and, when the model calls functions and
  /// `inlineLayers` is set, inlines them (tessel-inline-layers: layers as
  /// functions, with their scopes); module() is null (and an error was
  /// printed) on failure. A pipelined compile keeps the calls, which mark
  /// where stages may start.
  explicit ModelFile(StringRef path, bool inlineLayers = true);

  ModuleOp module() { return moduleRef.get(); }
  MLIRContext &context() { return ctx; }

  /// Returns the function named `name`, or the first function when `name`
  /// is empty; prints an error naming the file when there is none.
  func::FuncOp function(StringRef name);

private:
  std::string path;
  MLIRContext ctx;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics;
  OwningOpRef<ModuleOp> moduleRef;
};

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_SUPPORT_MODELFILE_H
