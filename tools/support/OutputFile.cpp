//===- OutputFile.cpp - writing a tool's output without losing files ------===//

#include "tools/support/OutputFile.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

using namespace mlir::tessel;
namespace fs = llvm::sys::fs;

bool mlir::tessel::outputIsAnInput(llvm::StringRef tool, llvm::StringRef output,
                                   llvm::ArrayRef<NamedInput> inputs) {
  for (const auto &[input, what] : inputs) {
    bool same = false;
    // equivalent() compares device and inode, so "./m.mlir", a hard or
    // symbolic link to it all count; an output that does not exist yet is
    // no input.
    if (input.empty() || fs::equivalent(output, input, same) || !same)
      continue;
    llvm::errs() << tool << ": the output " << output << " is " << what << " ("
                 << input
                 << "); refusing to write over an input (choose another -o)\n";
    return true;
  }
  return false;
}

ReplacingOutput::ReplacingOutput(llvm::StringRef target) : target(target) {
  // Beside the target, so that the rename stays within one file system and
  // is atomic; a dot file, so that a leftover from a kill is out of sight.
  llvm::SmallString<256> model(llvm::sys::path::parent_path(target));
  llvm::sys::path::append(model, "." + llvm::sys::path::filename(target) +
                                     ".tmp-%%%%%%");
  llvm::SmallString<256> unique;
  fs::createUniquePath(model, unique, /*MakeAbsolute=*/false);
  temporary = std::string(unique);
}

ReplacingOutput::~ReplacingOutput() {
  if (!committed)
    fs::remove(temporary);
}

bool ReplacingOutput::commit(llvm::StringRef tool) {
  if (std::error_code code = fs::rename(temporary, target)) {
    llvm::errs() << tool << ": cannot replace " << target << ": "
                 << code.message() << "\n";
    return false;
  }
  committed = true;
  return true;
}

bool mlir::tessel::writeFileAtomically(
    llvm::StringRef tool, llvm::StringRef path,
    llvm::function_ref<void(llvm::raw_ostream &)> text) {
  ReplacingOutput output(path);
  {
    std::error_code code;
    llvm::raw_fd_ostream os(output.path(), code, fs::OF_Text);
    if (code) {
      llvm::errs() << tool << ": cannot write " << path << ": "
                   << code.message() << "\n";
      return false;
    }
    text(os);
    os.close();
    if (os.has_error()) {
      // Cleared, or the stream's destructor would end the process with
      // "IO failure on output stream" and no name.
      llvm::errs() << tool << ": cannot write " << path << ": "
                   << os.error().message() << "\n";
      os.clear_error();
      return false;
    }
  }
  return output.commit(tool);
}
