//===- ProbeOutput.cpp - A machine profile from the calibrate probe -------===//

#include "tools/tessel/ProbeOutput.h"

#include "layouts/StrictJson.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>
#include <tuple>

namespace analysis = ::tessel::analysis;
using nlohmann::json;

namespace mlir::tessel {

std::optional<std::vector<ProbeLine>> parseProbeLines(const std::string &text,
                                                      const std::string &source,
                                                      std::string &error) {
  std::vector<ProbeLine> lines;
  std::istringstream in(text);
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line.front() != '{')
      continue;
    ::tessel::layout::RepeatedKey repeated;
    json parsed = ::tessel::layout::parseNotingRepeatedKey(line, repeated);
    std::string where = fmt::format("{}:{}", source, number);
    if (parsed.is_discarded() || !parsed.is_object()) {
      error = where + ": not one JSON object (the probe's output cut short?)";
      return std::nullopt;
    }
    if (!repeated.key.empty()) {
      error = fmt::format("{}: key '{}' is given twice", where, repeated.key);
      return std::nullopt;
    }
    lines.push_back({std::move(parsed), std::move(where)});
  }
  return lines;
}

std::optional<std::vector<ProbeRun>> readProbeOutput(const std::string &dir,
                                                     std::string &error) {
  if (!llvm::sys::fs::is_directory(dir)) {
    error = dir + ": not a directory of the probe's output";
    return std::nullopt;
  }
  std::map<int64_t, std::string> files;
  std::error_code code;
  for (llvm::sys::fs::directory_iterator entry(dir, code), end;
       entry != end && !code; entry.increment(code)) {
    llvm::StringRef name = llvm::sys::path::filename(entry->path());
    long long ranks = 0;
    if (!name.consume_front("ranks-") || !name.consume_back(".jsonl") ||
        name.getAsInteger(10, ranks) || ranks < 1)
      continue;
    if (files.count(ranks)) {
      error = dir + ": " + files[ranks] + " and " + entry->path() +
              " are both the output on " + std::to_string(ranks) + " rank(s)";
      return std::nullopt;
    }
    files[ranks] = entry->path();
  }
  if (code) {
    error = dir + ": " + code.message();
    return std::nullopt;
  }
  if (files.empty()) {
    error = dir + ": no probe output (ranks-N.jsonl, what "
                  "`mpirun -n N tessel-calibrate-probe ...` printed)";
    return std::nullopt;
  }
  std::vector<ProbeRun> runs;
  for (const auto &[ranks, path] : files) {
    llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> buffer =
        llvm::MemoryBuffer::getFile(path);
    if (!buffer) {
      error = path + ": " + buffer.getError().message();
      return std::nullopt;
    }
    std::optional<std::vector<ProbeLine>> lines =
        parseProbeLines((*buffer)->getBuffer().str(), path, error);
    if (!lines)
      return std::nullopt;
    // A job that failed before measuring anything (its launcher's lines
    // only) must not pass for one that measured nothing.
    if (lines->empty()) {
      error = path + ": no measurement (did the probe fail on " +
              std::to_string(ranks) + " rank(s)?)";
      return std::nullopt;
    }
    runs.push_back({ranks, std::move(*lines), path});
  }
  return runs;
}

namespace {

/// Reads the fields of one probe line, noting the first that is missing
/// or of the wrong type.
class LineFields {
public:
  LineFields(const ProbeLine &line, std::string &error)
      : line(line), error(error) {}

  /// An integer of at least `least`.
  int64_t integer(const char *key, int64_t least = 0) {
    std::optional<int64_t> value;
    if (line.value.contains(key))
      value = ::tessel::layout::int64Value(line.value[key]);
    if (!value || *value < least)
      fail(key, least == 0
                    ? "a whole number"
                    : "a whole number of at least " + std::to_string(least));
    return value.value_or(0);
  }
  /// A finite number, not negative.
  double number(const char *key) {
    if (line.value.contains(key) && line.value[key].is_number()) {
      double value = line.value[key].get<double>();
      if (std::isfinite(value) && value >= 0)
        return value;
    }
    fail(key, "a finite number, not negative");
    return 0;
  }
  /// true or false; false where the line has no such key.
  bool flag(const char *key) {
    if (!line.value.contains(key))
      return false;
    if (line.value[key].is_boolean())
      return line.value[key].get<bool>();
    fail(key, "true or false");
    return false;
  }
  std::string text(const char *key) {
    if (line.value.contains(key) && line.value[key].is_string())
      return line.value[key].get<std::string>();
    fail(key, "a string");
    return "";
  }
  bool failed() const { return !error.empty(); }

private:
  void fail(const char *key, const std::string &what) {
    if (error.empty())
      error = fmt::format("{}: \"{}\" must be {}", line.where, key, what);
  }
  const ProbeLine &line;
  std::string &error;
};

/// The element type a kernel or skipped line names: the probe's f32 lines
/// had no "type" before it timed bf16 and f16.
std::string elementType(const ProbeLine &line, LineFields &fields) {
  return line.value.contains("type") ? fields.text("type") : "f32";
}

/// Whether `line` is of kind `kind`. Read without nlohmann's typed get: a
/// "kind" of another type is an error where the line is read, not an
/// abort here.
bool isKind(const ProbeLine &line, const char *kind) {
  auto found = line.value.find("kind");
  return found != line.value.end() && found->is_string() &&
         found->get_ref<const std::string &>() == kind;
}

} // namespace

std::optional<ProbedMachine> probedMachine(const std::vector<ProbeRun> &runs,
                                           std::string &error) {
  const ProbeLine *line = nullptr;
  for (const ProbeRun &run : runs)
    for (const ProbeLine &candidate : run.lines)
      if (!line && isKind(candidate, "machine"))
        line = &candidate;
  if (!line) {
    error = "the probe's output has no machine line (run the probe with "
            "--machine on one of the job sizes)";
    return std::nullopt;
  }
  LineFields facts(*line, error);
  ProbedMachine machine;
  machine.where = line->where;
  machine.host = facts.text("host");
  machine.cpu = facts.text("cpu");
  machine.cores = facts.integer("cores", 1);
  machine.cacheBytes = facts.integer("cache_bytes");
  machine.backend = facts.text("backend");
  machine.devices = facts.integer("devices");
  machine.measuredAt = facts.text("measured_at");
  if (facts.failed())
    return std::nullopt;
  // "bf16_products", then "bf16_filter_gradients", which says the same
  // where a probe of before it was recorded apart leaves it out.
  for (auto [key, kind] :
       {std::pair{"bf16_products", &machine.bf16Products},
        std::pair{"bf16_filter_gradients", &machine.bf16FilterGradients}}) {
    if (kind == &machine.bf16FilterGradients)
      *kind = machine.bf16Products;
    if (!line->value.contains(key))
      continue;
    std::optional<analysis::Bf16Products> products =
        analysis::parseBf16Products(facts.text(key));
    if (facts.failed())
      return std::nullopt;
    if (!products) {
      error = fmt::format("{}: \"{}\" must be \"widened\" or \"native\"",
                          machine.where, key);
      return std::nullopt;
    }
    *kind = *products;
  }
  if (machine.backend != "cpu" && machine.backend != "cuda") {
    error = fmt::format("{}: unknown backend \"{}\"", machine.where,
                        machine.backend);
    return std::nullopt;
  }
  if (machine.kernelRanks() < 1) {
    error = fmt::format("{}: a machine of {} {}", machine.where,
                        machine.kernelRanks(),
                        machine.backend == "cuda" ? "devices" : "cores");
    return std::nullopt;
  }
  return machine;
}

std::optional<analysis::MachineProfile>
assembleProfile(const std::vector<ProbeRun> &runs,
                const std::string &description, std::string &error) {
  std::optional<ProbedMachine> machine = probedMachine(runs, error);
  if (!machine)
    return std::nullopt;
  analysis::MachineProfile profile;
  profile.cpu = machine->cpu;
  // On the GPU a rank has a device of its own: the profile's "cores" are
  // the devices (MachineProfile::kernelSeconds slows a job of more ranks).
  profile.cores = machine->kernelRanks();
  profile.cacheBytes = machine->cacheBytes;
  profile.calibratedAt = machine->measuredAt;
  profile.bf16Products = machine->bf16Products;
  profile.bf16FilterGradients = machine->bf16FilterGradients;
  profile.description = description.empty()
                            ? fmt::format("measured on {}", machine->host)
                            : description;
  // The cold-kernel model is the host's caches against a step's buffers;
  // a CUDA profile keeps its cold points but says no caches, so that
  // search times its kernels warm until the device's level 2 is modelled.
  if (machine->backend == "cuda") {
    profile.cacheBytes = 0;
    profile.description += fmt::format(" (CUDA, {} device{})", machine->devices,
                                       machine->devices == 1 ? "" : "s");
  }

  // How much each job of no more ranks than the machine's cores hid of a
  // started all_reduce; the profile takes the largest job's.
  std::map<int64_t, double> overlaps;
  // Keyed by collective, started, job size and group.
  std::map<std::tuple<std::string, bool, int64_t, int64_t>,
           analysis::CollectiveFit>
      fits;
  for (const ProbeRun &run : runs) {
    if (run.lines.empty() || !isKind(run.lines.back(), "end")) {
      error = fmt::format("{}: no end line: the probe's job on {} rank(s) "
                          "stopped before it finished",
                          run.source, run.ranks);
      return std::nullopt;
    }
    bool timesKernels = run.ranks <= machine->kernelRanks();
    analysis::KernelRates rates;
    rates.ranks = run.ranks;
    for (const ProbeLine &line : run.lines) {
      LineFields fields(line, error);
      std::string kind = fields.text("kind");
      if (kind != "machine" && fields.integer("ranks", 1) != run.ranks &&
          !fields.failed()) {
        error = fmt::format(
            "{}: measured on {} rank(s), but the file is of a job of {}",
            line.where, line.value["ranks"].dump(), run.ranks);
        return std::nullopt;
      }
      if (kind == "kernel") {
        std::string opClass = fields.text("class");
        std::string type = elementType(line, fields);
        int64_t threads = fields.integer("threads");
        analysis::KernelPoint point{fields.integer("work", 1),
                                    fields.number("seconds"),
                                    fields.number("cold_seconds")};
        const std::vector<std::string> &narrow = analysis::narrowKernelTypes();
        bool isNarrow =
            std::find(narrow.begin(), narrow.end(), type) != narrow.end();
        if (!fields.failed() && type != "f32" && !isNarrow) {
          error = fmt::format("{}: unknown element type \"{}\" (expected "
                              "f32, bf16 or f16)",
                              line.where, type);
          return std::nullopt;
        }
        if (timesKernels && !fields.failed()) {
          rates.threads = threads;
          (isNarrow ? rates.narrowClasses[type] : rates.classes)[opClass]
              .push_back(point);
        }
      } else if (kind == "per_op") {
        double seconds = fields.number("seconds");
        if (timesKernels)
          rates.perOpSeconds = std::max(0.0, seconds);
      } else if (kind == "collective") {
        std::string collective = fields.text("collective");
        int64_t group = fields.integer("group", 2);
        // Probes before the started forms were timed apart print none.
        bool started = fields.flag("started");
        analysis::CollectivePoint point{fields.integer("bytes_per_rank"),
                                        fields.number("seconds")};
        if (!fields.failed()) {
          analysis::CollectiveFit &fit =
              fits[{collective, started, run.ranks, group}];
          fit.collective = collective;
          fit.started = started;
          fit.ranks = run.ranks;
          fit.group = group;
          fit.points.push_back(point);
        }
      } else if (kind == "overlap") {
        double collective = fields.number("collective_seconds");
        double kernels = fields.number("kernel_seconds");
        double together = fields.number("together_seconds");
        // The share of the shorter one that running them together saved;
        // none where together took as long as the two apart, or longer, or
        // saved less than 5% of it (timing noise, which the shorter one's
        // few microseconds on a fast device would magnify).
        double shorter = std::min(collective, kernels);
        double saved = collective + kernels - together;
        if (saved < 0.05 * together)
          saved = 0;
        if (!fields.failed() && shorter > 0 && timesKernels)
          overlaps[run.ranks] = std::clamp(saved / shorter, 0.0, 1.0);
      } else if (kind == "skipped") {
        // A kernel the backend lacks at a narrow type: the profile times
        // that class from the f32 points. Without its f32 points there is
        // no profile.
        std::string type = elementType(line, fields);
        if (type == "f32" && !fields.failed()) {
          auto reason = line.value.find("reason");
          error = fmt::format(
              "{}: the probe could not time class \"{}\" in f32, which "
              "every profile needs{}",
              line.where, fields.text("class"),
              reason != line.value.end() && reason->is_string()
                  ? ": " + reason->get<std::string>()
                  : std::string());
          return std::nullopt;
        }
      } else if (kind != "machine" && kind != "end" && !fields.failed()) {
        error = fmt::format("{}: unknown kind \"{}\"", line.where, kind);
      }
      if (fields.failed())
        return std::nullopt;
    }
    if (timesKernels && (!rates.classes.empty() || rates.perOpSeconds))
      profile.kernels.push_back(std::move(rates));
  }
  for (auto &[key, fit] : fits) {
    analysis::fitAlphaBeta(fit);
    profile.collectives.push_back(fit);
  }
  if (!overlaps.empty())
    profile.overlapFraction = overlaps.rbegin()->second;
  return profile;
}

} // namespace mlir::tessel
