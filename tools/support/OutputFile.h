//===- OutputFile.h - tool outputs that lose no file ------------*- C++ -*-===//
//
// How the tessel tools write what they produce: never over one of their
// inputs, and through a temporary file beside the target that is renamed
// over it only once it is whole, so that a failed or interrupted write (an
// error, a full disk, a kill) leaves the earlier output as it was.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_SUPPORT_OUTPUTFILE_H
#define TESSEL_TOOLS_SUPPORT_OUTPUTFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <utility>

namespace mlir::tessel {

/// An input of a command and what it is, e.g. {"m.mlir", "the model"}.
using NamedInput = std::pair<llvm::StringRef, llvm::StringRef>;

/// Reports and returns true when `output` is one of `inputs` (the same file,
/// however it is spelt: a link or another path to it counts too).
bool outputIsAnInput(llvm::StringRef tool, llvm::StringRef output,
                     llvm::ArrayRef<NamedInput> inputs);

/// A temporary path beside a target file (`DIR/.NAME.tmp-XXXXXX`, not yet
/// created), renamed over the target by commit(); removed unless committed.
class ReplacingOutput {
public:
  explicit ReplacingOutput(llvm::StringRef target);
  ~ReplacingOutput();
  ReplacingOutput(const ReplacingOutput &) = delete;
  ReplacingOutput &operator=(const ReplacingOutput &) = delete;

  /// The path to write to.
  llvm::StringRef path() const { return temporary; }
  /// Renames the written file over the target; reports why not on failure.
  bool commit(llvm::StringRef tool);

private:
  std::string target, temporary;
  bool committed = false;
};

/// Writes `text` to `path` through a ReplacingOutput; a write error (a full
/// disk) is reported with the path and leaves the old file.
bool writeFileAtomically(llvm::StringRef tool, llvm::StringRef path,
                         llvm::function_ref<void(llvm::raw_ostream &)> text);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_SUPPORT_OUTPUTFILE_H
