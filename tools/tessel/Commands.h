//===- Commands.h - the subcommands of the tessel driver --------*- C++ -*-===//

#ifndef TESSEL_TOOLS_TESSEL_COMMANDS_H
#define TESSEL_TOOLS_TESSEL_COMMANDS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace mlir::tessel {

extern llvm::cl::SubCommand explainCommand;
extern llvm::cl::SubCommand compileCommand;
extern llvm::cl::SubCommand runCommand;

/// tessel explain: what a layout costs, per rank.
int runExplain();
/// tessel compile: the whole pipeline, up to an SPMD executable.
int runCompile(const char *tool);
/// tessel run: compile, then mpirun the executable with `programArgs`.
int runRun(const char *tool, llvm::ArrayRef<std::string> programArgs);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_COMMANDS_H
