//===- Launcher.cpp - how tessel run starts a compiled program ------------===//
//
// mpirun gets tessel's defaults first (Mpirun.h: unbound ranks,
// oversubscription, root allowed), then --hostfile, then the user's
// --launcher-args, so that the user's --bind-to or --map-by win (Open MPI
// takes the last one given). srun gets --ntasks and --cpu-bind=none, then
// the user's arguments; its hosts are the Slurm allocation's.
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/Launcher.h"

#include "tools/tessel/Commands.h"
#include "tools/tessel/Mpirun.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/StringSaver.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

using namespace mlir::tessel;
namespace cl = llvm::cl;

namespace {

enum class Launcher { Mpirun, Srun };

cl::opt<Launcher> launcher(
    "launcher", cl::desc("what starts the ranks"), cl::init(Launcher::Mpirun),
    cl::values(clEnumValN(Launcher::Mpirun, "mpirun",
                          "Open MPI's mpirun, on this machine or on the "
                          "hosts of --hostfile"),
               clEnumValN(Launcher::Srun, "srun",
                          "Slurm's srun, inside an allocation (salloc, "
                          "sbatch)")),
    cl::sub(runCommand));
cl::opt<std::string> launcherArgs(
    "launcher-args",
    cl::desc("more options for the launcher, split as a shell would, after "
             "tessel's own (e.g. \"--map-by ppr:2:node --mca btl "
             "self,tcp\")"),
    cl::value_desc("options"), cl::sub(runCommand));
cl::alias mpirunArgs("mpirun-args", cl::desc("the same as --launcher-args"),
                     cl::aliasopt(launcherArgs));
cl::opt<std::string>
    hostfile("hostfile",
             cl::desc("mpirun's hostfile: the hosts (and their slots) to "
                      "start the ranks on"),
             cl::value_desc("file"), cl::sub(runCommand));

/// The launcher's path, or nullopt after saying why there is none.
std::optional<std::string> findLauncher() {
  if (launcher == Launcher::Mpirun)
    return findMpirun();
  llvm::ErrorOr<std::string> srun = llvm::sys::findProgramByName("srun");
  if (!srun) {
    llvm::errs() << "tessel run: --launcher srun: srun is not on PATH (it "
                    "comes with Slurm; run inside an allocation)\n";
    return std::nullopt;
  }
  return *srun;
}

} // namespace

bool mlir::tessel::checkLauncherOptions() {
  if (!hostfile.empty()) {
    if (launcher == Launcher::Srun) {
      llvm::errs() << "tessel run: --hostfile is mpirun's; srun starts the "
                      "ranks on the hosts of the Slurm allocation\n";
      return false;
    }
    llvm::sys::fs::file_status status;
    if (std::error_code code = llvm::sys::fs::status(hostfile, status)) {
      llvm::errs() << "tessel run: --hostfile " << hostfile << ": "
                   << code.message() << "\n";
      return false;
    }
    if (!llvm::sys::fs::is_regular_file(status)) {
      llvm::errs() << "tessel run: --hostfile " << hostfile << ": not a file\n";
      return false;
    }
  }
  return findLauncher().has_value();
}

int mlir::tessel::launchProgram(llvm::StringRef program, int64_t ranks,
                                llvm::ArrayRef<std::string> programArgs) {
  std::optional<std::string> path = findLauncher();
  if (!path)
    return 1;
  llvm::SmallVector<std::string> args;
  if (launcher == Launcher::Mpirun) {
    args = mpirunArguments(*path, ranks);
    if (!hostfile.empty())
      args.append({"--hostfile", hostfile});
  } else {
    // As with mpirun: each rank's kernels use its share of the cores.
    args = {*path, "--ntasks=" + std::to_string(ranks), "--cpu-bind=none"};
  }
  llvm::BumpPtrAllocator allocator;
  llvm::StringSaver saver(allocator);
  llvm::SmallVector<const char *> extra;
  cl::TokenizeGNUCommandLine(launcherArgs, saver, extra);
  args.append(extra.begin(), extra.end());
  args.push_back(program.str());
  args.append(programArgs.begin(), programArgs.end());

  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());
  std::string message;
  int status = llvm::sys::ExecuteAndWait(*path, argRefs, std::nullopt, {}, 0, 0,
                                         &message);
  if (status < 0) {
    llvm::errs() << "tessel run: " << *path << ": " << message << "\n";
    return 1;
  }
  return status;
}
