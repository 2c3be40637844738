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

#include <algorithm>
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

/// Runs `program` with `args` (args[0] its name), its output into `log`
/// (its standard output into `out` where given); false after printing the
/// log where it fails.
bool runLogged(const std::string &program, const std::vector<std::string> &args,
               const std::string &log, const std::string &what,
               const std::string &out = "") {
  std::vector<llvm::StringRef> refs(args.begin(), args.end());
  std::optional<llvm::StringRef> redirects[] = {
      std::nullopt, llvm::StringRef(out.empty() ? log : out),
      llvm::StringRef(log)};
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

/// Writes `model` into `dir` under `name`: its path, or nullopt after
/// saying why.
std::optional<std::string>
writeModel(const std::string &dir, const std::string &name, const char *model) {
  std::string source = dir + "/" + name + ".mlir";
  std::ofstream out(source);
  out << model;
  if (!out) {
    llvm::errs() << "tessel calibrate: cannot write " << source << "\n";
    return std::nullopt;
  }
  return source;
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
  std::optional<std::string> written = writeModel(dir, name, model);
  if (!written)
    return std::nullopt;
  const std::string &source = *written;
  std::string executable = dir + "/" + name + ".spmd";
  std::string metrics = dir + "/" + name + ".jsonl";
  std::string log = dir + "/" + name + ".log";
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

/// What `tessel explain --train` predicts for the training step of the
/// model in `dir` under `name` (written by peakOfTrivialProgram), compiled
/// on one rank without options: its runtime call sites, and the bytes its
/// step holds besides the driver and the call sites.
struct ExplainedProgram {
  int64_t callSites = 0;
  int64_t stepBytes = 0;
};

std::optional<ExplainedProgram> explainTrivialProgram(const std::string &tool,
                                                      const std::string &dir,
                                                      const std::string &name) {
  std::string source = dir + "/" + name + ".mlir";
  std::string report = dir + "/" + name + ".explain.json";
  std::string log = dir + "/" + name + ".explain.log";
  if (!runLogged(tool,
                 {tool, "explain", source, "--train", "--mesh", "data:1",
                  "--rules", "batch:data", "--format", "json"},
                 log, "explaining the " + name + " program", report))
    return std::nullopt;
  std::ifstream in(report);
  nlohmann::json json = nlohmann::json::parse(in, nullptr, false);
  auto count = [&](const char *section, const char *key) -> const int64_t * {
    if (json.is_discarded() || !json.contains(section) ||
        !json[section].contains(key) || !json[section][key].is_number_integer())
      return nullptr;
    return json[section][key].get_ptr<const int64_t *>();
  };
  const int64_t *total = count("totals", "memory_bytes_per_rank");
  const int64_t *driver = count("memory", "driver_bytes");
  const int64_t *sites = count("memory", "call_sites");
  const int64_t *sitesBytes = count("memory", "call_site_bytes");
  if (!total || !driver || !sites || !sitesBytes) {
    llvm::errs() << "tessel calibrate: " << report
                 << " has no memory_bytes_per_rank, driver_bytes, call_sites "
                    "or call_site_bytes\n";
    return std::nullopt;
  }
  return ExplainedProgram{*sites, *total - *driver - *sitesBytes};
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
  // What each call site holds: the peak's growth from the 1-block program
  // to the 16-block one beyond what their steps' buffers grow, per call
  // site more (about 106 a block).
  std::optional<int64_t> deep = peakOfTrivialProgram(
      tool, mpirun, *dir, "deep-text", kDeepTinyTransformer, {}, {});
  if (!deep)
    return false;
  std::optional<ExplainedProgram> shallowProgram =
      explainTrivialProgram(tool, *dir, "text");
  std::optional<ExplainedProgram> deepProgram =
      shallowProgram ? explainTrivialProgram(tool, *dir, "deep-text")
                     : std::nullopt;
  if (!deepProgram)
    return false;
  int64_t moreSites = deepProgram->callSites - shallowProgram->callSites;
  if (moreSites <= 0) {
    llvm::errs() << "tessel calibrate: the 16-block program has no more call "
                    "sites than the 1-block one\n";
    return false;
  }
  int64_t growth =
      (*deep - *text) - (deepProgram->stepBytes - shallowProgram->stepBytes);
  if (growth <= 0)
    llvm::errs() << fmt::format(
        "tessel calibrate: warning: the 16-block program peaked {} bytes "
        "above the 1-block one, no more than its steps' buffers grow; "
        "call sites priced at 0 (measure again on a quieter machine)\n",
        *deep - *text);
  profile.driverBytes = *text;
  profile.driverCallSites = shallowProgram->callSites;
  profile.callSiteBytes = std::max<int64_t>(0, growth / moreSites);
  profile.imageLoadBytes = std::max<int64_t>(0, *loaded - *text);
  profile.imageResidentBytes = residentBytes;
  profile.hasMemory = true;
  return true;
}
