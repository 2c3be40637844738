//===- Calibrate.cpp - tessel calibrate: measure this machine -------------===//
//
// `calibrate` starts tessel-calibrate-probe (runtime/calibrate) under
// mpirun, as `tessel run` starts a program, once per job size: kernels and
// the compiled program's work per op besides its kernel on 1, 2, 4, ...
// ranks up to the cores (each rank's rate while that many share the
// machine), collectives on 2, 4, ... ranks (groups of all ranks, and of two
// side by side). It fits each collective's latency and bandwidth, measures the
// driver's own memory (CalibrateMemory.h), and writes the machine profile
// that `tessel search --profile` and `tessel explain --profile` read
// (docs/search.md).
//
//===----------------------------------------------------------------------===//

#include "tools/tessel/CalibrateMemory.h"
#include "tools/tessel/Commands.h"
#include "tools/tessel/Mpirun.h"
#include "tools/tessel/ProbeOutput.h"

#include "analysis/MachineProfile.h"
#include "codegen/Link.h"
#include "tools/support/OutputFile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

using namespace mlir;
namespace cl = llvm::cl;
namespace analysis = ::tessel::analysis;

cl::SubCommand mlir::tessel::calibrateCommand(
    "calibrate", "measure this machine's kernels and collectives through the "
                 "runtime and write a machine profile (JSON)");

namespace {

cl::opt<std::string> outputPath("o",
                                cl::desc("profile to write (default: stdout)"),
                                cl::value_desc("path"),
                                cl::sub(mlir::tessel::calibrateCommand));
cl::opt<int64_t> maxRanks(
    "max-ranks",
    cl::desc("largest job measured: 1, 2, 4, ... up to this many ranks"),
    cl::init(4), cl::sub(mlir::tessel::calibrateCommand));
cl::opt<int> repetitions("repetitions",
                         cl::desc("timed batches per measurement (median)"),
                         cl::init(5), cl::sub(mlir::tessel::calibrateCommand));
cl::opt<double> minSeconds("min-seconds",
                           cl::desc("shortest timed batch of calls"),
                           cl::init(0.01),
                           cl::sub(mlir::tessel::calibrateCommand));
cl::opt<bool> noMemory(
    "no-memory",
    cl::desc("leave the memory section out (explain and search then use the "
             "built-in profile's)"),
    cl::sub(mlir::tessel::calibrateCommand));
cl::opt<std::string> dataDir(
    "data-dir",
    cl::desc("Fashion-MNIST's directory, for the memory its load takes"),
    cl::init("/usr/share/datasets/fashion-mnist"),
    cl::sub(mlir::tessel::calibrateCommand));
cl::opt<mlir::tessel::RuntimeTarget>
    target("target", cl::desc("the runtime measured"),
           cl::init(mlir::tessel::RuntimeTarget::Cpu),
           cl::values(clEnumValN(mlir::tessel::RuntimeTarget::Cpu, "cpu",
                                 "the CPU runtime (oneDNN, MPI)"),
                      clEnumValN(mlir::tessel::RuntimeTarget::Cuda, "cuda",
                                 "the GPU runtime (cuBLAS, cuDNN, NCCL): "
                                 "kernels on up to one rank a device, no "
                                 "memory section")),
           cl::sub(mlir::tessel::calibrateCommand));
cl::opt<std::string> probeOutput(
    "probe-output",
    cl::desc("assemble the profile from the probe's output saved in this "
             "directory (ranks-N.jsonl: what `mpirun -n N "
             "tessel-calibrate-probe` printed on the machine measured) "
             "instead of measuring here; no memory section"),
    cl::value_desc("dir"), cl::sub(mlir::tessel::calibrateCommand));
cl::opt<std::string>
    description("description",
                cl::desc("says where the profile was measured (default: the "
                         "host name)"),
                cl::sub(mlir::tessel::calibrateCommand));

/// The running tessel executable.
std::string toolPath(const char *tool) {
  return llvm::sys::fs::getMainExecutable(tool,
                                          reinterpret_cast<void *>(&toolPath));
}

/// What a program wrote to its standard output (with its standard error
/// when asked), how it ended, and why it could not run if it could not.
struct Captured {
  int status = 0;
  std::string output;
  std::string message;
};

/// Runs `args` (the program first) with its output captured through a
/// temporary file; nothing, after saying why, where there is no such file.
std::optional<Captured> runCaptured(llvm::ArrayRef<llvm::StringRef> args,
                                    bool withErrors) {
  llvm::SmallString<128> path;
  if (std::error_code code =
          llvm::sys::fs::createTemporaryFile("tessel-calibrate", "txt", path)) {
    llvm::errs() << "tessel calibrate: no temporary file: " << code.message()
                 << "\n";
    return std::nullopt;
  }
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(path),
      withErrors ? std::optional<llvm::StringRef>(llvm::StringRef(path))
                 : std::nullopt};
  Captured captured;
  captured.status = llvm::sys::ExecuteAndWait(
      args.front(), args, std::nullopt, redirects, 0, 0, &captured.message);
  std::ifstream in(path.c_str());
  std::stringstream text;
  text << in.rdbuf();
  captured.output = text.str();
  llvm::sys::fs::remove(path);
  return captured;
}

/// `name` beside the running tessel (build/bin, or an install's bin).
std::string besideTool(const char *tool, const char *name) {
  llvm::SmallString<256> path(llvm::sys::path::parent_path(toolPath(tool)));
  llvm::sys::path::append(path, name);
  return std::string(path);
}

/// The CUDA devices `tessel-cuda-probe` finds, or nothing after saying
/// why there are none.
std::optional<int64_t> cudaDevices(const char *tool) {
  std::string probe = besideTool(tool, "tessel-cuda-probe");
  if (!llvm::sys::fs::can_execute(probe)) {
    llvm::errs() << "tessel calibrate: --target cuda: " << probe
                 << " is missing (the build found no CUDA toolkit)\n";
    return std::nullopt;
  }
  std::optional<Captured> ran = runCaptured({probe}, /*withErrors=*/true);
  if (!ran)
    return std::nullopt;
  std::string said = ran->output.substr(0, ran->output.find('\n'));
  long long devices = 0;
  if (ran->status != 0 || std::sscanf(said.c_str(), "%lld", &devices) != 1 ||
      devices < 1) {
    llvm::errs() << "tessel calibrate: --target cuda: "
                 << (said.empty() ? std::string("no CUDA device") : said)
                 << "\n";
    return std::nullopt;
  }
  return devices;
}

/// Runs the probe on `ranks` ranks with `modes` (--kernels, --collectives)
/// and returns what rank 0 printed, or nullopt after saying why.
std::optional<mlir::tessel::ProbeRun>
runProbe(const std::string &mpirun, const std::string &probe, int64_t ranks,
         const std::vector<std::string> &modes) {
  llvm::SmallVector<std::string> args =
      mlir::tessel::mpirunArguments(mpirun, ranks);
  args.push_back(probe);
  args.append(modes.begin(), modes.end());
  args.push_back("--repetitions=" + std::to_string(repetitions));
  args.push_back("--min-seconds=" + fmt::format("{}", minSeconds.getValue()));
  llvm::SmallVector<llvm::StringRef> argRefs(args.begin(), args.end());

  std::optional<Captured> ran = runCaptured(argRefs, /*withErrors=*/false);
  if (!ran)
    return std::nullopt;
  if (ran->status != 0) {
    llvm::errs() << fmt::format("tessel calibrate: {} on {} rank(s) failed "
                                "(exit status {}){}\n",
                                probe, ranks, ran->status,
                                ran->message.empty() ? "" : ": " + ran->message);
    return std::nullopt;
  }
  std::string error;
  std::optional<std::vector<mlir::tessel::ProbeLine>> lines =
      mlir::tessel::parseProbeLines(
          ran->output, fmt::format("the probe's output on {} rank(s)", ranks),
          error);
  if (!lines) {
    llvm::errs() << "tessel calibrate: " << error << "\n";
    return std::nullopt;
  }
  return mlir::tessel::ProbeRun{
      ranks, std::move(*lines),
      fmt::format("the probe's output on {} rank(s)", ranks)};
}

/// Runs the probe on 1, 2, 4, ... ranks up to `largest`: the machine,
/// kernels and the per-op time on one rank, then kernels and the per-op
/// time on jobs of up to the machine's ProbedMachine::kernelRanks (as the
/// profile is assembled from them), collectives on every job of two or
/// more.
std::optional<std::vector<mlir::tessel::ProbeRun>>
measure(const std::string &mpirun, const std::string &probe, int64_t largest) {
  std::vector<mlir::tessel::ProbeRun> runs;
  int64_t kernelRanks = 1;
  for (int64_t ranks = 1; ranks <= largest; ranks *= 2) {
    llvm::errs() << "tessel calibrate: " << ranks << " rank(s)...\n";
    std::vector<std::string> modes;
    if (ranks == 1)
      modes.push_back("--machine");
    if (ranks <= kernelRanks)
      modes.insert(modes.end(), {"--kernels", "--per-op"});
    if (ranks > 1)
      modes.push_back("--collectives");
    std::optional<mlir::tessel::ProbeRun> run =
        runProbe(mpirun, probe, ranks, modes);
    if (!run)
      return std::nullopt;
    runs.push_back(std::move(*run));
    if (ranks == 1) {
      std::string error;
      std::optional<mlir::tessel::ProbedMachine> machine =
          mlir::tessel::probedMachine(runs, error);
      if (!machine) {
        llvm::errs() << "tessel calibrate: " << error << "\n";
        return std::nullopt;
      }
      kernelRanks = machine->kernelRanks();
    }
  }
  return runs;
}

} // namespace

int mlir::tessel::runCalibrate(const char *tool) {
  if (maxRanks < 1 || repetitions < 1 || !(minSeconds > 0)) {
    llvm::errs() << "tessel calibrate: --max-ranks and --repetitions must be "
                    "at least 1 and --min-seconds positive\n";
    return 1;
  }
  // mpirun's rank count is an int (and doubling past 2^62 would overflow);
  // an infinite --min-seconds never ends a timed batch.
  if (maxRanks > std::numeric_limits<int>::max()) {
    llvm::errs() << "tessel calibrate: --max-ranks " << maxRanks
                 << ": more ranks than MPI can start (2^31 - 1)\n";
    return 1;
  }
  if (!std::isfinite(minSeconds)) {
    llvm::errs() << "tessel calibrate: --min-seconds must be a finite "
                    "number of seconds\n";
    return 1;
  }
  bool fromSaved = !probeOutput.empty();
  if (fromSaved && target.getNumOccurrences()) {
    llvm::errs() << "tessel calibrate: --probe-output: the profile is of the "
                    "runtime the probe ran on; --target does not apply\n";
    return 1;
  }
  // What the saved output was measured with was decided where it ran.
  if (fromSaved)
    for (const auto *measuring : std::initializer_list<const cl::Option *>{
             &maxRanks, &repetitions, &minSeconds, &noMemory, &dataDir})
      if (measuring->getNumOccurrences()) {
        llvm::errs() << "tessel calibrate: --probe-output measures nothing; --"
                     << measuring->ArgStr << " does not apply\n";
        return 1;
      }
  bool cuda = target == mlir::tessel::RuntimeTarget::Cuda;
  // On the GPU each rank has a device of its own: kernels are timed on up
  // to one rank a device, and the driver's memory is the host's (not
  // measured there).
  std::optional<int64_t> devices;
  std::optional<std::string> mpirun;
  std::string probe;
  if (!fromSaved) {
    if (cuda && !(devices = cudaDevices(tool)))
      return 1;
    probe = besideTool(tool, cuda ? "tessel-calibrate-probe-cuda"
                                  : "tessel-calibrate-probe");
    if (!llvm::sys::fs::can_execute(probe)) {
      llvm::errs() << "tessel calibrate: " << probe
                   << " is missing: build the runtime (ninja -C build)\n";
      return 1;
    }
    if (!(mpirun = findMpirun()))
      return 1;
  }
  // The driver's memory is measured on the host's runtime, here: not for
  // the GPU's, nor for a machine whose probe output was saved.
  bool measuresMemory = !noMemory && !cuda && !fromSaved;
  // The memory section needs the data set; known missing before anything
  // is measured.
  std::optional<int64_t> residentBytes;
  if (measuresMemory) {
    residentBytes = mlir::tessel::trainingSplitBytes(dataDir);
    if (!residentBytes) {
      llvm::errs() << "tessel calibrate: Fashion-MNIST's training split is "
                      "not in "
                   << dataDir
                   << " (--data-dir; Debian's dataset-fashion-mnist installs "
                      "it), which the driver's memory is measured with; "
                      "--no-memory leaves the memory section out\n";
      return 1;
    }
  }
  // Written to a temporary file beside -o, created first so that a path
  // that cannot be written fails before the measuring, and renamed over -o
  // only when whole: an earlier profile survives a calibration that fails
  // or is interrupted.
  std::optional<ReplacingOutput> replacing;
  std::optional<llvm::raw_fd_ostream> out;
  if (!outputPath.empty()) {
    // The temporary file beside a directory opens, and the rename over it
    // would fail only after the measuring.
    if (llvm::sys::fs::is_directory(outputPath)) {
      llvm::errs() << "tessel calibrate: " << outputPath
                   << ": Is a directory\n";
      return 1;
    }
    replacing.emplace(outputPath);
    std::error_code code;
    out.emplace(replacing->path(), code, llvm::sys::fs::OF_Text);
    if (code) {
      llvm::errs() << "tessel calibrate: " << outputPath << ": "
                   << code.message() << "\n";
      return 1;
    }
  }

  std::string error;
  std::optional<std::vector<mlir::tessel::ProbeRun>> runs;
  if (fromSaved) {
    if (!(runs = mlir::tessel::readProbeOutput(probeOutput, error))) {
      llvm::errs() << "tessel calibrate: " << error << "\n";
      return 1;
    }
  } else {
    // NCCL takes one device a rank, so a GPU job is no larger than the
    // devices.
    int64_t largest = maxRanks;
    if (cuda && maxRanks > *devices) {
      largest = *devices;
      llvm::errs() << fmt::format(
          "tessel calibrate: --target cuda: {0} device{1}, so jobs of up to "
          "{0} rank{1} (one device a rank)\n",
          *devices, *devices == 1 ? "" : "s");
    }
    if (!(runs = measure(*mpirun, probe, largest)))
      return 1;
  }
  std::optional<analysis::MachineProfile> assembled =
      mlir::tessel::assembleProfile(*runs, description, error);
  if (!assembled) {
    llvm::errs() << "tessel calibrate: " << error << "\n";
    return 1;
  }
  analysis::MachineProfile &profile = *assembled;
  if (measuresMemory &&
      !mlir::tessel::measureMemory(toolPath(tool), *mpirun, dataDir,
                                   *residentBytes, profile))
    return 1;

  // What was measured must read back as a valid profile.
  std::string text = analysis::formatMachineProfile(profile);
  if (!analysis::parseMachineProfile(text, "the measured profile", error)) {
    llvm::errs() << "tessel calibrate: " << error << "\n";
    return 1;
  }
  if (!out) {
    llvm::outs() << text;
    return 0;
  }
  *out << text;
  out->close();
  if (out->has_error()) {
    llvm::errs() << "tessel calibrate: cannot write " << outputPath << ": "
                 << out->error().message() << "\n";
    out->clear_error();
    return 1;
  }
  return replacing->commit("tessel calibrate") ? 0 : 1;
}
