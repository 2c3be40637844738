//===- Launcher.h - how tessel run starts a compiled program ----*- C++ -*-===//
//
// `tessel run` starts the ranks of a compiled program with mpirun (on this
// machine, or on the hosts of a --hostfile) or with Slurm's srun, passing
// any options of the user's to the launcher (--launcher-args, also spelt
// --mpirun-args). The options belong to the run subcommand.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_LAUNCHER_H
#define TESSEL_TOOLS_TESSEL_LAUNCHER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <string>

namespace mlir::tessel {

/// Checks the launcher options (a readable hostfile, options that fit the
/// launcher, the launcher on PATH) before anything is compiled; prints what
/// is wrong and returns false.
bool checkLauncherOptions();

/// Starts `ranks` ranks of `program` with `programArgs` under the launcher
/// the options name and waits for them. Returns the launcher's exit
/// status, or 1 (with a message) when it could not be started.
int launchProgram(llvm::StringRef program, int64_t ranks,
                  llvm::ArrayRef<std::string> programArgs);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_LAUNCHER_H
