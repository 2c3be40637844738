//===- CalibrateMemory.cpp - the machine profile's memory section ---------===//

#include "tools/tessel/CalibrateMemory.h"

#include "tools/tessel/Mpirun.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <zlib.h>

#include <array>
#include <fstream>
#include <optional>
#include <sstream>
#include <vector>

namespace analysis = ::tessel::analysis;

namespace {

#include "calibrate/Models.inc"

constexpr double kMiB = 1024.0 * 1024.0;

/// Steps each program trains: a rank's memory grows a little over the first
/// steps (benchmarks/memory_model.py).
constexpr const char *kSteps = "10";

/// A scratch directory, removed with everything in it when done.
class ScratchDirectory {
public:
  std::optional<std::string> create() {
    llvm::SmallString<128> made;
    if (std::error_code code =
            llvm::sys::fs::createUniqueDirectory("tessel-calibrate", made)) {
      llvm::errs() << "tessel calibrate: no scratch directory: "
                   << code.message() << "\n";
      return std::nullopt;
    }
    path = std::string(made);
    return path;
  }
  ~ScratchDirectory() {
    if (!path.empty())
      llvm::sys::fs::remove_directories(path);
  }

private:
  std::string path;
};

/// Runs `program` with `args` (args[0] its name), its output into `log`;
/// false after printing the log where it fails.
bool runLogged(const std::string &program, const std::vector<std::string> &args,
               const std::string &log, const std::string &what) {
  std::vector<llvm::StringRef> refs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(log), llvm::StringRef(log)};
  std::string message;
  int status = llvm::sys::ExecuteAndWait(program, refs, std::nullopt, redirects,
                                         0, 0, &message);
  if (status == 0)
    return true;
  std::ifstream in(log);
  std::stringstream said;
  said << in.rdbuf();
  llvm::errs() << fmt::format(
      "tessel calibrate: {} failed (exit status {}){}:\n{}", what, status,
      message.empty() ? "" : ": " + message, said.str());
  return false;
}

/// Compiles `model` (written into `dir` under `name`) with
/// `compileOptions` for one rank and trains it there for kSteps steps with
/// `runOptions`: the rank's peak resident memory in bytes, or nullopt after
/// saying why.
std::optional<int64_t>
peakOfTrivialProgram(const std::string &tool, const std::string &mpirun,
                     const std::string &dir, const std::string &name,
                     const char *model, std::vector<std::string> compileOptions,
                     std::vector<std::string> runOptions) {
  std::string source = dir + "/" + name + ".mlir";
  std::string executable = dir + "/" + name + ".spmd";
  std::string metrics = dir + "/" + name + ".jsonl";
  std::string log = dir + "/" + name + ".log";
  {
    std::ofstream out(source);
    out << model;
    if (!out) {
      llvm::errs() << "tessel calibrate: cannot write " << source << "\n";
      return std::nullopt;
    }
  }
  std::vector<std::string> compile = {
      tool, "compile", source, "--mesh", "data:1", "--rules", "batch:data"};
  compile.insert(compile.end(), compileOptions.begin(), compileOptions.end());
  compile.insert(compile.end(), {"-o", executable});
  if (!runLogged(tool, compile, log, "compiling the " + name + " program"))
    return std::nullopt;
  llvm::SmallVector<std::string> mpirunArgs =
      mlir::tessel::mpirunArguments(mpirun, 1);
  std::vector<std::string> run(mpirunArgs.begin(), mpirunArgs.end());
  run.insert(run.end(), {executable, "--steps", kSteps, "--no-evaluate",
                         "--metrics", metrics});
  run.insert(run.end(), runOptions.begin(), runOptions.end());
  if (!runLogged(mpirun, run, log, "training the " + name + " program"))
    return std::nullopt;
  // The last line sums the run up: peak_rss_mib, one figure per rank.
  std::ifstream in(metrics);
  std::string line, last;
  while (std::getline(in, line))
    if (!line.empty())
      last = line;
  nlohmann::json summary = nlohmann::json::parse(last, nullptr, false);
  if (summary.is_discarded() || !summary.contains("peak_rss_mib") ||
      !summary["peak_rss_mib"].is_array() || summary["peak_rss_mib"].empty()) {
    llvm::errs() << "tessel calibrate: " << metrics
                 << " has no peak_rss_mib in its last line\n";
    return std::nullopt;
  }
  double largest = 0;
  for (const nlohmann::json &rank : summary["peak_rss_mib"])
    if (rank.is_number())
      largest = std::max(largest, rank.get<double>());
  return static_cast<int64_t>(largest * kMiB);
}

/// The body bytes of the idx file `dir`/`name` (with or without .gz): the
/// product of the dims its header gives, one byte per element (the driver
/// reads unsigned-byte idx files). nullopt after saying why.
std::optional<int64_t> idxBodyBytes(const std::string &dir,
                                    const std::string &name) {
  std::string path = dir + "/" + name + ".gz";
  if (!llvm::sys::fs::exists(path))
    path = dir + "/" + name;
  gzFile file = gzopen(path.c_str(), "rb");
  if (!file) {
    llvm::errs() << "tessel calibrate: cannot read " << path << "\n";
    return std::nullopt;
  }
  // Magic: two zero bytes, the element type, the number of dims; then each
  // dim as a big-endian 32-bit count.
  std::array<unsigned char, 4 + 4 * 3> header{};
  int read = gzread(file, header.data(), 4);
  int dims = read == 4 ? header[3] : 0;
  if (dims >= 1 && dims <= 3)
    read += gzread(file, header.data() + 4, 4 * dims);
  gzclose(file);
  if (dims < 1 || dims > 3 || read != 4 + 4 * dims || header[0] != 0 ||
      header[1] != 0) {
    llvm::errs() << "tessel calibrate: " << path
                 << " is not an idx file of 1 to 3 dims\n";
    return std::nullopt;
  }
  int64_t bytes = 1;
  for (int d = 0; d < dims; ++d) {
    const unsigned char *count = header.data() + 4 + 4 * d;
    bytes *= (int64_t(count[0]) << 24) | (int64_t(count[1]) << 16) |
             (int64_t(count[2]) << 8) | int64_t(count[3]);
  }
  return bytes;
}

} // namespace

std::optional<int64_t>
mlir::tessel::trainingSplitBytes(const std::string &dataDir) {
  std::optional<int64_t> images =
      idxBodyBytes(dataDir, "train-images-idx3-ubyte");
  std::optional<int64_t> labels =
      images ? idxBodyBytes(dataDir, "train-labels-idx1-ubyte") : std::nullopt;
  if (!labels)
    return std::nullopt;
  return *images + *labels;
}

bool mlir::tessel::measureMemory(const std::string &tool,
                                 const std::string &mpirun,
                                 const std::string &dataDir,
                                 int64_t residentBytes,
                                 analysis::MachineProfile &profile) {
  ScratchDirectory scratch;
  std::optional<std::string> dir = scratch.create();
  if (!dir)
    return false;
  llvm::errs() << "tessel calibrate: the driver's memory...\n";
  std::optional<int64_t> text = peakOfTrivialProgram(tool, mpirun, *dir, "text",
                                                     kTinyTransformer, {}, {});
  if (!text)
    return false;
  std::optional<int64_t> loaded = peakOfTrivialProgram(
      tool, mpirun, *dir, "images", kMlp,
      {"--dim-size", "hidden=1", "--batch", "4"}, {"--data", dataDir});
  if (!loaded)
    return false;
  profile.driverBytes = *text;
  profile.imageLoadBytes = std::max<int64_t>(0, *loaded - *text);
  profile.imageResidentBytes = residentBytes;
  profile.hasMemory = true;
  return true;
}
