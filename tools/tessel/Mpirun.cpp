//===- Mpirun.cpp - how the tessel tools start an SPMD job ----------------===//

#include "tools/tessel/Mpirun.h"

#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <unistd.h>

std::optional<std::string> mlir::tessel::findMpirun() {
  llvm::ErrorOr<std::string> mpirun = llvm::sys::findProgramByName("mpirun");
  if (!mpirun) {
    llvm::errs() << "tessel: mpirun is not on PATH (install openmpi-bin)\n";
    return std::nullopt;
  }
  return *mpirun;
}

llvm::SmallVector<std::string>
mlir::tessel::mpirunArguments(llvm::StringRef mpirun, int64_t ranks) {
  llvm::SmallVector<std::string> args = {
      mpirun.str(),      "-n",        std::to_string(ranks),
      "--oversubscribe", "--bind-to", "none"};
  // Open MPI refuses to run as root unless asked to.
  if (geteuid() == 0)
    args.push_back("--allow-run-as-root");
  return args;
}
