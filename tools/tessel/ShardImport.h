//===- ShardImport.h - upstream shard-annotated MLIR as a tessel model -*- C++
//-*-===//
//
// The translation behind `tessel import-shard`: a function of upstream MLIR
// (linalg on tensors, arith and math in the bodies, `shard.grid` and
// `shard.shard` annotations) becomes a tessel function with named
// dimensions, and its annotations become a layout (mesh, rules, overrides).
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_SHARDIMPORT_H
#define TESSEL_TOOLS_TESSEL_SHARDIMPORT_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include <string>
#include <utility>
#include <vector>

namespace mlir::tessel {

/// A layout as `tessel import-shard` derives it from the annotations.
struct ImportedLayout {
  using Axes = std::vector<std::string>;
  /// The grid's axes, named, in the grid's order.
  std::vector<std::pair<std::string, int64_t>> mesh;
  /// Dimension name -> the mesh axes that split it, for every dimension
  /// that most of its annotated tensors split.
  std::vector<std::pair<std::string, Axes>> rules;
  /// Tensor name -> its dimensions whose annotation differs from the rule.
  std::vector<std::pair<std::string, std::vector<std::pair<std::string, Axes>>>>
      overrides;

  /// The layout file (docs/layouts.md), after the comment `header`.
  std::string yaml(const std::string &header) const;
};

/// Translates `function` of the upstream module `upstream` into a tessel
/// function built at the end of `target` (a module in a context with the
/// tessel and func dialects), and derives its layout from the annotations.
/// Named linalg ops in `function` are generalized in place first. Errors
/// are emitted at the upstream op they concern.
FailureOr<ImportedLayout>
importShardFunction(ModuleOp upstream, func::FuncOp function, ModuleOp target);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_SHARDIMPORT_H
