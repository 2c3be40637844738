//===- OptionValues.cpp - option values the tools refuse ------------------===//

#include "tools/support/OptionValues.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <sstream>

using namespace mlir::tessel;

namespace {

template <typename T>
bool refuse(llvm::StringRef tool, llvm::StringRef option, T value,
            llvm::StringRef why) {
  // Printed as given ("nan", "-1"), which raw_ostream's %e would not.
  std::ostringstream text;
  text << value;
  llvm::errs() << tool << ": --" << option << " " << text.str() << ": " << why
               << "\n";
  return false;
}

} // namespace

bool mlir::tessel::checkStepOptionValues(llvm::StringRef tool,
                                         const StepOptionValues &values) {
  if (values.batch && values.batch->getNumOccurrences() &&
      values.batch->getValue() < 1)
    return refuse(tool, "batch", values.batch->getValue(),
                  "a batch must be positive");
  if (values.bucketBytes && *values.bucketBytes < 0)
    return refuse(tool, "bucket-bytes", *values.bucketBytes,
                  "must be 0 (no buckets) or more");
  if (values.weightDecay &&
      (!std::isfinite(*values.weightDecay) || *values.weightDecay < 0))
    return refuse(tool, "weight-decay", *values.weightDecay,
                  "must be a finite number, 0 or more");
  if (values.clipNorm &&
      (!std::isfinite(*values.clipNorm) || *values.clipNorm < 0))
    return refuse(tool, "clip-norm", *values.clipNorm,
                  "must be a finite number, 0 (no clipping) or more");
  return true;
}

bool mlir::tessel::checkRulesHaveAMesh(llvm::StringRef tool,
                                       llvm::StringRef layoutPath,
                                       llvm::StringRef meshSpec,
                                       llvm::StringRef rulesSpec) {
  if (rulesSpec.empty() || !meshSpec.empty())
    return true;
  llvm::errs() << tool << ": --rules '" << rulesSpec
               << "' needs --mesh to split over";
  if (!layoutPath.empty())
    llvm::errs() << "; the layout file " << layoutPath
                 << " has rules of its own";
  llvm::errs() << "\n";
  return false;
}

bool mlir::tessel::checkNoOptionRepeated(llvm::StringRef tool) {
  // The command's options: a subcommand's (with those every subcommand
  // shares), or the top level's when there is no subcommand.
  llvm::cl::SubCommand *active = &llvm::cl::SubCommand::getTopLevel();
  for (llvm::cl::SubCommand *sub : llvm::cl::getRegisteredSubcommands())
    if (*sub)
      active = sub;
  for (const auto &[name, option] : llvm::cl::getRegisteredOptions(*active)) {
    // cl::opt is Optional or Required; lists are ZeroOrMore or OneOrMore.
    llvm::cl::NumOccurrencesFlag flag = option->getNumOccurrencesFlag();
    if ((flag != llvm::cl::Optional && flag != llvm::cl::Required) ||
        option->getNumOccurrences() < 2 || name != option->ArgStr)
      continue;
    llvm::errs() << tool << (active->getName().empty() ? "" : " ")
                 << active->getName() << ": " << (name.size() == 1 ? "-" : "--")
                 << name << " is given " << option->getNumOccurrences()
                 << " times; give it once\n";
    return false;
  }
  return true;
}

bool mlir::tessel::checkNoEmptyPaths(llvm::StringRef tool, int argc,
                                     char **argv,
                                     llvm::ArrayRef<llvm::StringRef> paths) {
  for (int i = 1; i < argc; ++i) {
    // "-o", "--o", "-layout" and "--layout" all name an option for llvm::cl;
    // its value follows as "=VALUE" or as the next argument.
    llvm::StringRef argument(argv[i]);
    if (!argument.consume_front("-"))
      continue;
    argument.consume_front("-");
    auto [name, value] = argument.split('=');
    bool empty = argument.contains('=')
                     ? value.empty()
                     : i + 1 < argc && llvm::StringRef(argv[i + 1]).empty();
    if (!empty || !llvm::is_contained(paths, name))
      continue;
    llvm::errs() << tool << ": " << (name.size() == 1 ? "-" : "--") << name
                 << " is given an empty path\n";
    return false;
  }
  return true;
}
