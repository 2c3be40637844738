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

/// A model file parsed in a context of its own that reports diagnostics
/// through a source manager.
class ModelFile {
public:
  /// Parses `path` and, when the model calls functions, inlines them
  /// (tessel-inline-layers: layers as functions, with their scopes);
  /// module() is null (and an error was printed) on failure.
  explicit ModelFile(StringRef path);

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
