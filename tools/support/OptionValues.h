//===- OptionValues.h - option values the tools refuse ----------*- C++ -*-===//
//
// The checks that `tessel compile`, `run`, `explain` and `search` share for
// the option values that shape a training step, so that a value one of them
// refuses is not ignored, or built into a step, by another.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_SUPPORT_OPTIONVALUES_H
#define TESSEL_TOOLS_SUPPORT_OPTIONVALUES_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <cstdint>
#include <optional>

namespace mlir::tessel {

/// The step's options as given; an option a tool does not have is nullopt.
struct StepOptionValues {
  /// --batch: 0 (its default) keeps the model's batch, so given, it must be
  /// positive.
  const llvm::cl::opt<int64_t> *batch = nullptr;
  std::optional<int64_t> bucketBytes;
  std::optional<double> weightDecay;
  std::optional<double> clipNorm;
};

/// Prints "TOOL: --OPTION VALUE: WHY" for the first value that makes no
/// sense (a batch below 1, negative bucket bytes, a weight decay or clip
/// norm that is negative, NaN or infinite) and returns false; true if all
/// are fine.
bool checkStepOptionValues(llvm::StringRef tool,
                           const StepOptionValues &values);

/// Refuses --rules without --mesh ("TOOL: --rules 'R' needs --mesh ..."):
/// a layout file has rules of its own, and without either the rules were
/// dropped without a word. Returns true if the options are fine.
bool checkRulesHaveAMesh(llvm::StringRef tool, llvm::StringRef layoutPath,
                         llvm::StringRef meshSpec, llvm::StringRef rulesSpec);

/// Refuses an option of the command line just parsed that was given more
/// than once ("TOOL SUBCOMMAND: -n is given 2 times; give it once"):
/// llvm::cl keeps the last value, so `-n 4 -n 8` or `--optimizer adam
/// --optimizer sgd` ran with one of them without a word. Options that
/// repeat by design (lists: --dim-size, --compare) are not counted. Returns
/// true if none is.
bool checkNoOptionRepeated(llvm::StringRef tool);

/// Refuses a path option given an empty value (`-o ""`, `--layout=`)
/// before the command line is parsed ("TOOL: -o is given an empty path"):
/// an empty path read as "not given", so `-o ""` wrote to the default
/// output, to stdout or nowhere without a word. `paths` are the names of
/// the options that take a path ("o", "layout"); other options (`--rules
/// ""`: no rules) may be empty. Returns true if none is.
bool checkNoEmptyPaths(llvm::StringRef tool, int argc, char **argv,
                       llvm::ArrayRef<llvm::StringRef> paths);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_SUPPORT_OPTIONVALUES_H
