//===- MachineProfile.cpp - how fast this machine computes and talks ------===//

#include "analysis/MachineProfile.h"

#include "layouts/CheckedArithmetic.h"
#include "layouts/InputFile.h"
#include "layouts/StrictJson.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <sstream>
#include <vector>

using nlohmann::json;
using nlohmann::ordered_json;

namespace tessel::analysis {

namespace {

constexpr const char *kFormat = "tessel-machine-profile";
// 2 (2026-11-28): convolution work counts the channel blocks oneDNN
// computes (analysis/StepTime.h, vectorizedConvolutionWork).
constexpr int kVersion = 2;
// Bounds that no real machine leaves: a kernel call under a nanosecond or
// a collective faster than 10 TB/s per rank is a broken measurement.
constexpr double kMinSeconds = 1e-9;
constexpr double kMaxBytesPerSecond = 1e13;
// A program's own work around one op's kernel call is a few hundred
// nanoseconds; a millisecond is a broken measurement.
constexpr double kMaxPerOpSeconds = 1e-3;

/// The entry of `entries` measured with the job size nearest `ranks`,
/// preferring a larger one on a tie (contention is the safer guess).
template <typename Entry>
const Entry *nearestJob(const std::vector<const Entry *> &entries,
                        int64_t ranks) {
  const Entry *best = nullptr;
  for (const Entry *entry : entries) {
    if (!best) {
      best = entry;
      continue;
    }
    int64_t distance = std::llabs(entry->ranks - ranks);
    int64_t bestDistance = std::llabs(best->ranks - ranks);
    if (distance < bestDistance ||
        (distance == bestDistance && entry->ranks > best->ranks))
      best = entry;
  }
  return best;
}

/// The kernel entries a job is timed from: those measured with no more
/// ranks than `cores` where there are any. A batch of back-to-back calls
/// on more ranks than cores does not share the cores as a training step
/// does (on 4 ranks over 2 cores calibrate timed an add of 4096 elements
/// at 0.60 us, as on one rank, where a step's kernels take twice their
/// time: the job's work over the cores); a job that large is timed from
/// one rank a core, slowed by sharedCoreSlowdown.
std::vector<const KernelRates *>
kernelJobs(std::vector<const KernelRates *> entries, int64_t cores) {
  auto fits = [&](const KernelRates *entry) { return entry->ranks <= cores; };
  if (std::any_of(entries.begin(), entries.end(), fits))
    entries.erase(
        std::remove_if(entries.begin(), entries.end(),
                       [&](const KernelRates *entry) { return !fits(entry); }),
        entries.end());
  return entries;
}

/// Reads `object[key]` as a number, or says why not.
bool number(const json &object, const char *key, const std::string &where,
            double &value, std::string &error) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number()) {
    error = fmt::format("{}: '{}' must be a number", where, key);
    return false;
  }
  value = it->get<double>();
  return true;
}

bool positive(const json &object, const char *key, const std::string &where,
              double &value, std::string &error) {
  if (!number(object, key, where, value, error))
    return false;
  if (!(value > 0) || !std::isfinite(value)) {
    error = fmt::format("{}: '{}' must be positive, not {}", where, key, value);
    return false;
  }
  return true;
}

/// Reads `object[key]` as a count (ranks, threads, cores, work, bytes) of
/// at least `least`: a number below 2^63, so that it converts to int64_t
/// (1e300 did not: the conversion is undefined behaviour); a fraction is
/// dropped, as before.
bool count(const json &object, const char *key, const std::string &where,
           int64_t least, int64_t &value, std::string &error) {
  double read = 0;
  if (!number(object, key, where, read, error))
    return false;
  if (!(read >= static_cast<double>(least)) || !(read < 0x1p63)) {
    error = fmt::format("{}: '{}' must be a count from {} to 2^63 - 1, not {}",
                        where, key, least, read);
    return false;
  }
  value = static_cast<int64_t>(read);
  return true;
}

/// Reads a kernel entry's classes (`object`, class -> points) into
/// `classes`, each class's points sorted by work. `complete`: every class
/// that has no fallback must be there (f32's "classes"); otherwise any of
/// them may be (a narrow type's, whose missing ones are timed by f32's).
bool readKernelClasses(const json &object, const std::string &where,
                       bool complete,
                       std::map<std::string, std::vector<KernelPoint>> &classes,
                       std::string &error) {
  for (const std::string &opClass : kernelClasses()) {
    auto points = object.find(opClass);
    // A class added since the profile was written is timed as the class
    // it falls back to (kernelClassFallback).
    if (points == object.end() && (!complete || kernelClassFallback(opClass)))
      continue;
    if (points == object.end() || !points->is_array() || points->empty()) {
      error = fmt::format("{}: class '{}' needs a non-empty array of "
                          "points",
                          where, opClass);
      return false;
    }
    std::vector<KernelPoint> &list = classes[opClass];
    for (size_t p = 0; p < points->size(); ++p) {
      const json &point = (*points)[p];
      std::string at = fmt::format("{}.{}[{}]", where, opClass, p);
      int64_t work = 0;
      double seconds = 0;
      if (!point.is_object() || !count(point, "work", at, 1, work, error) ||
          !positive(point, "seconds", at, seconds, error)) {
        if (error.empty())
          error = at + ": not an object";
        return false;
      }
      if (seconds < kMinSeconds) {
        error =
            fmt::format("{}: {} s per call is below a nanosecond", at, seconds);
        return false;
      }
      std::optional<double> coldSeconds;
      if (point.contains("cold_seconds")) {
        double cold = 0;
        if (!positive(point, "cold_seconds", at, cold, error))
          return false;
        coldSeconds = cold;
      }
      list.push_back({work, seconds, coldSeconds});
    }
    std::sort(list.begin(), list.end(),
              [](const KernelPoint &a, const KernelPoint &b) {
                return a.work < b.work;
              });
  }
  // A misspelt class ("matmull") was ignored, and its ops timed by the
  // class it was meant to replace or by the one it falls back to.
  for (const auto &[opClass, points] : object.items())
    if (std::find(kernelClasses().begin(), kernelClasses().end(), opClass) ==
        kernelClasses().end()) {
      std::string known;
      for (const std::string &name : kernelClasses())
        known += (known.empty() ? "" : ", ") + name;
      error = fmt::format("{}: unknown class '{}' (expected {})", where,
                          opClass, known);
      return false;
    }
  return true;
}

std::string stringOr(const json &object, const char *key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

/// Reads the machine's `key` ("widened" or "native") into `out` where it is
/// there (else leaves `out`), or fails naming it.
bool readBf16Products(const json &machine, const char *key,
                      const std::string &source, Bf16Products &out,
                      std::string &error) {
  if (!machine.contains(key))
    return true;
  std::optional<Bf16Products> products =
      parseBf16Products(stringOr(machine, key));
  if (!products) {
    error = fmt::format("{}: machine: '{}' must be \"widened\" or \"native\"",
                        source, key);
    return false;
  }
  out = *products;
  return true;
}

} // namespace

const std::vector<std::string> &kernelClasses() {
  static const std::vector<std::string> classes = {
      "matmul",         "matmul_thin", "matmul_batched",  "convolution",
      "elementwise",    "fused_entry", "reduction",       "normalization",
      "transcendental", "pooling",     "pooling_backward"};
  return classes;
}

std::optional<std::string> kernelClassFallback(const std::string &opClass) {
  // Profiles calibrated before transcendental ops had a class of their own
  // timed them as element-wise ops, and pooling and its gradient as
  // reductions.
  if (opClass == "transcendental")
    return std::string("elementwise");
  if (opClass == "pooling" || opClass == "pooling_backward")
    return std::string("reduction");
  // And every einsum at the square matmuls' rate, and each entry of a
  // fused body as an element-wise op of its own, as the unfused step was
  // timed before fused bodies were.
  if (opClass == "matmul_thin" || opClass == "matmul_batched")
    return std::string("matmul");
  if (opClass == "fused_entry")
    return std::string("elementwise");
  return std::nullopt;
}

const char *bf16ProductsName(Bf16Products products) {
  return products == Bf16Products::Native ? "native" : "widened";
}

std::optional<Bf16Products> parseBf16Products(const std::string &name) {
  if (name == "native")
    return Bf16Products::Native;
  if (name == "widened")
    return Bf16Products::Widened;
  return std::nullopt;
}

const std::vector<std::string> &narrowKernelTypes() {
  static const std::vector<std::string> types = {"bf16", "f16"};
  return types;
}

const std::vector<KernelPoint> *
KernelRates::pointsFor(const std::string &opClass,
                       const std::string &elementType) const {
  auto narrow = narrowClasses.find(elementType);
  if (narrow != narrowClasses.end()) {
    auto own = narrow->second.find(opClass);
    if (own != narrow->second.end())
      return &own->second;
  }
  auto it = classes.find(opClass);
  if (it != classes.end())
    return &it->second;
  // The class it falls back to in the same type, where that has points.
  if (std::optional<std::string> fallback = kernelClassFallback(opClass))
    return pointsFor(*fallback, elementType);
  return nullptr;
}

const std::vector<std::string> &profiledCollectives() {
  static const std::vector<std::string> collectives = {
      "all_reduce", "all_gather", "reduce_scatter", "all_to_all",
      "halo_exchange"};
  return collectives;
}

const KernelRates *
MachineProfile::ratesFor(const std::string &opClass, int64_t ranks,
                         const std::string &elementType) const {
  std::vector<const KernelRates *> entries;
  for (const KernelRates &entry : kernels)
    if (entry.pointsFor(opClass, elementType))
      entries.push_back(&entry);
  return nearestJob(kernelJobs(entries, cores), ranks);
}

bool MachineProfile::measuredClass(const std::string &opClass, int64_t ranks,
                                   const std::string &elementType) const {
  const KernelRates *rates = ratesFor(opClass, ranks, elementType);
  if (!rates)
    return false;
  // The class's own points for the type, not those it falls back to: a
  // narrow type's, or f32's for f32.
  auto narrow = rates->narrowClasses.find(elementType);
  if (narrow != rates->narrowClasses.end() && narrow->second.count(opClass))
    return true;
  return elementType == "f32" && rates->classes.count(opClass) > 0;
}

bool MachineProfile::hasColdKernels() const {
  if (cacheBytes <= 0)
    return false;
  // The f32 points decide; a narrow class without cold points is timed
  // warm (kernelSeconds), not the whole profile.
  for (const KernelRates &rates : kernels)
    for (const auto &[opClass, points] : rates.classes)
      for (const KernelPoint &point : points)
        if (!point.coldSeconds)
          return false;
  return true;
}

double MachineProfile::kernelSeconds(const std::string &opClass, int64_t work,
                                     int64_t ranks, bool cold,
                                     const std::string &elementType) const {
  const KernelRates *rates = ratesFor(opClass, ranks, elementType);
  if (!rates)
    return 0;
  const std::vector<KernelPoint> &points =
      *rates->pointsFor(opClass, elementType);
  bool useCold = cold && std::all_of(points.begin(), points.end(),
                                     [](const KernelPoint &point) {
                                       return point.coldSeconds.has_value();
                                     });
  // One cold call is timed alone; on more ranks than cores its peers may
  // not share the core during it as they do in a batch, so it is never
  // taken as faster than the warm call.
  auto secondsOf = [&](const KernelPoint &point) {
    return useCold ? std::max(*point.coldSeconds, point.seconds)
                   : point.seconds;
  };
  double seconds;
  if (work <= points.front().work) {
    seconds = secondsOf(points.front());
  } else if (work >= points.back().work) {
    seconds = secondsOf(points.back()) * static_cast<double>(work) /
              static_cast<double>(points.back().work);
  } else {
    size_t i = 1;
    while (points[i].work < work)
      ++i;
    const KernelPoint &lo = points[i - 1], &hi = points[i];
    double t = std::log(static_cast<double>(work) / lo.work) /
               std::log(static_cast<double>(hi.work) / lo.work);
    seconds = std::exp(std::log(secondsOf(lo)) +
                       t * (std::log(secondsOf(hi)) - std::log(secondsOf(lo))));
  }
  return seconds * sharedCoreSlowdown(*rates, ranks);
}

double MachineProfile::sharedCoreSlowdown(const KernelRates &rates,
                                          int64_t ranks) const {
  // Beyond the largest job measured, once there are more ranks than cores,
  // ranks share the cores: each one's work slows down in proportion.
  int64_t saturated = std::max(rates.ranks, cores);
  if (ranks > saturated)
    return static_cast<double>(ranks) / static_cast<double>(saturated);
  return 1;
}

double MachineProfile::perOpSeconds(int64_t ranks) const {
  std::vector<const KernelRates *> entries;
  for (const KernelRates &entry : kernels)
    if (entry.perOpSeconds)
      entries.push_back(&entry);
  const KernelRates *rates = nearestJob(kernelJobs(entries, cores), ranks);
  if (!rates)
    return 0;
  return *rates->perOpSeconds * sharedCoreSlowdown(*rates, ranks);
}

int64_t MachineProfile::callSitesBytes(int64_t callSites) const {
  if (callSites >= driverCallSites)
    return saturatingMul(callSites - driverCallSites, callSiteBytes);
  return -saturatingMul(driverCallSites - callSites, callSiteBytes);
}

double MachineProfile::collectiveSeconds(const std::string &collective,
                                         int64_t group, int64_t bytesPerRank,
                                         int64_t ranks, bool started) const {
  if (group <= 1)
    return 0;
  // A collective permute is point to point, like a halo exchange.
  std::string kind =
      collective == "collective_permute" ? "halo_exchange" : collective;
  // The fits a call may take: a blocking call only the blocking ones; a
  // started call either form, its own where the job size and group chosen
  // has it (a profile assembled from old and new probe output may time
  // the started forms on some jobs only).
  std::vector<const CollectiveFit *> sameGroup, sameKind;
  for (const CollectiveFit &fit : collectives) {
    if (fit.collective != kind || (fit.started && !started))
      continue;
    sameKind.push_back(&fit);
    if (fit.group == group)
      sameGroup.push_back(&fit);
  }
  auto inForm = [&](const CollectiveFit *chosen) {
    for (const CollectiveFit *fit : sameKind)
      if (fit->ranks == chosen->ranks && fit->group == chosen->group &&
          fit->started == started)
        return fit;
    return chosen;
  };
  if (const CollectiveFit *fit = nearestJob(sameGroup, ranks)) {
    fit = inForm(fit);
    return fit->alphaSeconds + bytesPerRank / fit->bytesPerSecond;
  }
  if (sameKind.empty())
    return 0;
  // A group larger than any measured: a ring's latency grows with its
  // steps (g - 1); its bus bandwidth is the link's, whatever g.
  const CollectiveFit *largest = sameKind.front();
  for (const CollectiveFit *fit : sameKind)
    if (fit->group > largest->group ||
        (fit->group == largest->group && fit->ranks > largest->ranks))
      largest = fit;
  largest = inForm(largest);
  double steps = static_cast<double>(group - 1) /
                 static_cast<double>(std::max<int64_t>(1, largest->group - 1));
  return largest->alphaSeconds * steps + bytesPerRank / largest->bytesPerSecond;
}

void fitAlphaBeta(CollectiveFit &fit) {
  // Minimise sum ((alpha + beta b - t) / t)^2: weights 1 / t^2.
  double sw = 0, sb = 0, sbb = 0, st = 0, sbt = 0;
  for (const CollectivePoint &point : fit.points) {
    double w = 1.0 / (point.seconds * point.seconds);
    double b = static_cast<double>(point.bytesPerRank);
    sw += w;
    sb += w * b;
    sbb += w * b * b;
    st += w * point.seconds;
    sbt += w * b * point.seconds;
  }
  double det = sw * sbb - sb * sb;
  double alpha = 0, beta = 0;
  if (det > 0) {
    alpha = (st * sbb - sb * sbt) / det;
    beta = (sw * sbt - sb * st) / det;
  }
  if (!(alpha >= 0) || !(beta > 0)) {
    // Latency too small to resolve: time proportional to bytes.
    alpha = 0;
    beta = sbb > 0 ? sbt / sbb : 0;
  }
  fit.alphaSeconds = alpha;
  fit.bytesPerSecond = beta > 0 ? 1.0 / beta : kMaxBytesPerSecond;
}

/// The keys a profile's top level may have; any other (a misspelt
/// "memroy") would be ignored without a word.
constexpr const char *kTopLevelKeys[] = {"format",  "version",     "machine",
                                         "kernels", "collectives", "memory"};

std::optional<MachineProfile> parseMachineProfile(const std::string &text,
                                                  const std::string &source,
                                                  std::string &error) {
  layout::RepeatedKey repeated;
  json root = layout::parseNotingRepeatedKey(text, repeated);
  if (root.is_discarded() || !root.is_object()) {
    error = source + ": not a JSON object";
    return std::nullopt;
  }
  if (!repeated.key.empty()) {
    error = repeated.path.empty()
                ? fmt::format("{}: key '{}' is given twice", source,
                              repeated.key)
                : fmt::format("{}: {}: key '{}' is given twice", source,
                              repeated.path, repeated.key);
    return std::nullopt;
  }
  for (const auto &item : root.items())
    if (std::find_if(std::begin(kTopLevelKeys), std::end(kTopLevelKeys),
                     [&](const char *known) { return item.key() == known; }) ==
        std::end(kTopLevelKeys)) {
      error = fmt::format("{}: unknown key '{}' (a profile has 'format', "
                          "'version', 'machine', 'kernels', 'collectives' "
                          "and 'memory')",
                          source, item.key());
      return std::nullopt;
    }
  if (stringOr(root, "format") != kFormat) {
    error = fmt::format("{}: 'format' must be \"{}\" (write profiles with "
                        "tessel calibrate)",
                        source, kFormat);
    return std::nullopt;
  }
  auto version = root.find("version");
  if (version == root.end() || !version->is_number_integer() ||
      version->get<int>() != kVersion) {
    error = fmt::format("{}: 'version' must be {}", source, kVersion);
    // Version 1 counted a convolution's work without its channel blocks.
    if (version != root.end() && version->is_number_integer() &&
        version->get<int>() == 1)
      error += " (version 1 counted convolutions' work in plain FLOPs, "
               "version 2 with their channels in whole blocks of 16: run "
               "tessel calibrate again)";
    return std::nullopt;
  }
  MachineProfile profile;
  profile.source = source;
  auto machine = root.find("machine");
  if (machine == root.end() || !machine->is_object()) {
    error = source + ": 'machine' must be an object";
    return std::nullopt;
  }
  profile.description = stringOr(*machine, "description");
  profile.cpu = stringOr(*machine, "cpu");
  profile.calibratedAt = stringOr(*machine, "calibrated_at");
  if (!count(*machine, "cores", source + ": machine", 1, profile.cores, error))
    return std::nullopt;
  if (machine->contains("cache_bytes") &&
      !count(*machine, "cache_bytes", source + ": machine", 1,
             profile.cacheBytes, error))
    return std::nullopt;
  // The filter gradients run as the other products where a profile of
  // before they were recorded apart says nothing of them.
  if (!readBf16Products(*machine, "bf16_products", source, profile.bf16Products,
                        error))
    return std::nullopt;
  profile.bf16FilterGradients = profile.bf16Products;
  if (!readBf16Products(*machine, "bf16_filter_gradients", source,
                        profile.bf16FilterGradients, error))
    return std::nullopt;
  if (auto overlap = machine->find("overlap_fraction");
      overlap != machine->end()) {
    if (!overlap->is_number() || !(overlap->get<double>() >= 0) ||
        overlap->get<double>() > 1) {
      error = source + ": machine: 'overlap_fraction' must be a number from "
                       "0 to 1";
      return std::nullopt;
    }
    profile.overlapFraction = overlap->get<double>();
  }

  auto kernels = root.find("kernels");
  if (kernels == root.end() || !kernels->is_array() || kernels->empty()) {
    error = source + ": 'kernels' must be a non-empty array";
    return std::nullopt;
  }
  for (size_t i = 0; i < kernels->size(); ++i) {
    const json &entry = (*kernels)[i];
    std::string where = fmt::format("{}: kernels[{}]", source, i);
    if (!entry.is_object()) {
      error = where + ": not an object";
      return std::nullopt;
    }
    KernelRates rates;
    if (!count(entry, "ranks", where, 1, rates.ranks, error) ||
        !count(entry, "threads", where, 0, rates.threads, error))
      return std::nullopt;
    // Measured since profiles were first written: a profile without it
    // reads, and its programs cost nothing per op beyond their kernels.
    if (entry.contains("per_op_seconds")) {
      double perOp = 0;
      if (!number(entry, "per_op_seconds", where, perOp, error))
        return std::nullopt;
      if (!(perOp >= 0) || perOp > kMaxPerOpSeconds) {
        error = fmt::format("{}: 'per_op_seconds' must be from 0 to {} s, "
                            "not {}",
                            where, kMaxPerOpSeconds, perOp);
        return std::nullopt;
      }
      rates.perOpSeconds = perOp;
    }
    auto classes = entry.find("classes");
    if (classes == entry.end() || !classes->is_object()) {
      error = where + ": 'classes' must be an object";
      return std::nullopt;
    }
    if (!readKernelClasses(*classes, where, /*complete=*/true, rates.classes,
                           error))
      return std::nullopt;
    // Measured since profiles were first written: a profile without them
    // times a mixed-precision step's kernels by the f32 points.
    if (entry.contains("narrow_classes")) {
      const json &narrow = entry["narrow_classes"];
      if (!narrow.is_object()) {
        error = where + ": 'narrow_classes' must be an object";
        return std::nullopt;
      }
      for (const auto &[type, typeClasses] : narrow.items()) {
        std::string at = fmt::format("{}.narrow_classes.{}", where, type);
        if (std::find(narrowKernelTypes().begin(), narrowKernelTypes().end(),
                      type) == narrowKernelTypes().end()) {
          error = fmt::format("{}: unknown element type '{}' (expected bf16 "
                              "or f16)",
                              where, type);
          return std::nullopt;
        }
        if (!typeClasses.is_object()) {
          error = at + ": not an object";
          return std::nullopt;
        }
        if (!readKernelClasses(typeClasses, at, /*complete=*/false,
                               rates.narrowClasses[type], error))
          return std::nullopt;
      }
    }
    profile.kernels.push_back(std::move(rates));
  }

  auto collectives = root.find("collectives");
  if (collectives == root.end() || !collectives->is_array()) {
    error = source + ": 'collectives' must be an array";
    return std::nullopt;
  }
  for (size_t i = 0; i < collectives->size(); ++i) {
    const json &entry = (*collectives)[i];
    std::string where = fmt::format("{}: collectives[{}]", source, i);
    if (!entry.is_object()) {
      error = where + ": not an object";
      return std::nullopt;
    }
    CollectiveFit fit;
    fit.collective = stringOr(entry, "collective");
    if (auto started = entry.find("started"); started != entry.end()) {
      if (!started->is_boolean()) {
        error = where + ": 'started' must be true or false";
        return std::nullopt;
      }
      fit.started = started->get<bool>();
    }
    if (std::find(profiledCollectives().begin(), profiledCollectives().end(),
                  fit.collective) == profiledCollectives().end()) {
      error = fmt::format("{}: unknown collective '{}'", where, fit.collective);
      return std::nullopt;
    }
    double bandwidth = 0;
    if (!count(entry, "ranks", where, 1, fit.ranks, error) ||
        !count(entry, "group", where, 1, fit.group, error) ||
        !number(entry, "alpha_seconds", where, fit.alphaSeconds, error) ||
        !positive(entry, "bandwidth_bytes_per_second", where, bandwidth, error))
      return std::nullopt;
    if (fit.alphaSeconds < 0 || bandwidth > kMaxBytesPerSecond) {
      error =
          fmt::format("{}: implausible fit (alpha {:.3g} s, {:.3g} bytes/s)",
                      where, fit.alphaSeconds, bandwidth);
      return std::nullopt;
    }
    if (fit.group > fit.ranks) {
      error = fmt::format("{}: a group of {} ranks in a job of {}", where,
                          fit.group, fit.ranks);
      return std::nullopt;
    }
    fit.bytesPerSecond = bandwidth;
    if (auto points = entry.find("points");
        points != entry.end() && points->is_array())
      for (const json &point : *points) {
        int64_t bytes = 0;
        double seconds = 0;
        if (!point.is_object() ||
            !count(point, "bytes_per_rank", where, 1, bytes, error) ||
            !positive(point, "seconds", where, seconds, error)) {
          if (error.empty())
            error = where + ": a point is not an object";
          return std::nullopt;
        }
        fit.points.push_back({bytes, seconds});
      }
    profile.collectives.push_back(std::move(fit));
  }
  if (auto memory = root.find("memory"); memory != root.end()) {
    if (!memory->is_object()) {
      error = source + ": 'memory' must be an object";
      return std::nullopt;
    }
    for (auto [key, field] :
         {std::pair{"driver_bytes", &profile.driverBytes},
          std::pair{"image_load_bytes", &profile.imageLoadBytes},
          std::pair{"image_resident_bytes", &profile.imageResidentBytes}}) {
      auto value = memory->find(key);
      if (value == memory->end() || !value->is_number_integer() ||
          value->get<int64_t>() < 0) {
        error =
            fmt::format("{}: memory: '{}' must be a byte count", source, key);
        return std::nullopt;
      }
      *field = value->get<int64_t>();
    }
    // Profiles calibrated before call sites were priced have neither; one
    // without the other would price the driver's own call sites again.
    if (memory->contains("driver_call_sites") !=
        memory->contains("call_site_bytes")) {
      error = fmt::format("{}: memory: 'driver_call_sites' and "
                          "'call_site_bytes' go together",
                          source);
      return std::nullopt;
    }
    for (auto [key, field] :
         {std::pair{"driver_call_sites", &profile.driverCallSites},
          std::pair{"call_site_bytes", &profile.callSiteBytes}}) {
      auto value = memory->find(key);
      if (value == memory->end())
        continue;
      if (!value->is_number_integer() || value->get<int64_t>() < 0) {
        error = fmt::format("{}: memory: '{}' must be a count", source, key);
        return std::nullopt;
      }
      *field = value->get<int64_t>();
    }
    profile.hasMemory = true;
  }
  return profile;
}

std::optional<MachineProfile> readMachineProfile(const std::string &path,
                                                 std::string &error) {
  if (std::optional<std::string> why = ::tessel::layout::notATextFile(path)) {
    error = path + ": " + *why;
    return std::nullopt;
  }
  std::ifstream in(path);
  if (!in) {
    error = path + ": cannot read the profile";
    return std::nullopt;
  }
  std::stringstream text;
  text << in.rdbuf();
  return parseMachineProfile(text.str(), path, error);
}

const MachineProfile &defaultMachineProfile() {
  static const MachineProfile profile = [] {
    static const char text[] =
#include "DefaultProfile.inc"
        ;
    std::string error;
    std::optional<MachineProfile> parsed =
        parseMachineProfile(text, "built-in default profile", error);
    if (!parsed) {
      // The file is checked when tessel is built and tested; reaching this
      // is a broken build.
      std::fprintf(stderr, "tessel: %s\n", error.c_str());
      std::abort();
    }
    return *parsed;
  }();
  return profile;
}

namespace {

/// `classes` as a profile writes them, in kernelClasses' order.
/// `complete`: every class without a fallback is written, empty if it was
/// not measured (and refused when read); otherwise only those measured.
ordered_json formatKernelClasses(
    const std::map<std::string, std::vector<KernelPoint>> &classes,
    bool complete) {
  ordered_json written = ordered_json::object();
  for (const std::string &opClass : kernelClasses()) {
    auto it = classes.find(opClass);
    // An older profile's missing class stays missing, and falls back
    // again when read.
    if (it == classes.end() && (!complete || kernelClassFallback(opClass)))
      continue;
    ordered_json points = ordered_json::array();
    if (it != classes.end())
      for (const KernelPoint &point : it->second) {
        ordered_json one = {{"work", point.work},
                            {"seconds", point.seconds},
                            {"rate", point.work / point.seconds}};
        if (point.coldSeconds)
          one["cold_seconds"] = *point.coldSeconds;
        points.push_back(one);
      }
    written[opClass] = points;
  }
  return written;
}

} // namespace

std::string formatMachineProfile(const MachineProfile &profile) {
  ordered_json root;
  root["format"] = kFormat;
  root["version"] = kVersion;
  root["machine"] = {{"description", profile.description},
                     {"cpu", profile.cpu},
                     {"cores", profile.cores}};
  // An older profile's unknown caches stay unknown.
  if (profile.cacheBytes > 0)
    root["machine"]["cache_bytes"] = profile.cacheBytes;
  root["machine"]["calibrated_at"] = profile.calibratedAt;
  root["machine"]["bf16_products"] = bf16ProductsName(profile.bf16Products);
  root["machine"]["bf16_filter_gradients"] =
      bf16ProductsName(profile.bf16FilterGradients);
  // An older profile's missing measurement stays missing.
  if (profile.overlapFraction)
    root["machine"]["overlap_fraction"] = *profile.overlapFraction;
  root["kernels"] = ordered_json::array();
  for (const KernelRates &rates : profile.kernels) {
    ordered_json entry = {{"ranks", rates.ranks}, {"threads", rates.threads}};
    // An older profile's missing measurement stays missing.
    if (rates.perOpSeconds)
      entry["per_op_seconds"] = *rates.perOpSeconds;
    entry["classes"] = formatKernelClasses(rates.classes, /*complete=*/true);
    ordered_json narrow = ordered_json::object();
    for (const std::string &type : narrowKernelTypes()) {
      auto it = rates.narrowClasses.find(type);
      if (it != rates.narrowClasses.end() && !it->second.empty())
        narrow[type] = formatKernelClasses(it->second, /*complete=*/false);
    }
    if (!narrow.empty())
      entry["narrow_classes"] = narrow;
    root["kernels"].push_back(entry);
  }
  root["collectives"] = ordered_json::array();
  for (const CollectiveFit &fit : profile.collectives) {
    ordered_json points = ordered_json::array();
    for (const CollectivePoint &point : fit.points)
      points.push_back(
          {{"bytes_per_rank", point.bytesPerRank}, {"seconds", point.seconds}});
    ordered_json entry = {{"collective", fit.collective}};
    // Blocking fits are written as profiles always wrote them.
    if (fit.started)
      entry["started"] = true;
    entry["ranks"] = fit.ranks;
    entry["group"] = fit.group;
    entry["alpha_seconds"] = fit.alphaSeconds;
    entry["bandwidth_bytes_per_second"] = fit.bytesPerSecond;
    entry["points"] = points;
    root["collectives"].push_back(entry);
  }
  if (profile.hasMemory)
    root["memory"] = {{"driver_bytes", profile.driverBytes},
                      {"driver_call_sites", profile.driverCallSites},
                      {"call_site_bytes", profile.callSiteBytes},
                      {"image_load_bytes", profile.imageLoadBytes},
                      {"image_resident_bytes", profile.imageResidentBytes}};
  return root.dump(2) + "\n";
}

} // namespace tessel::analysis
