//===- ProbeOutput.h - A profile from the probe's output --------*- C++ -*-===//
//
// tessel-calibrate-probe (runtime/calibrate) prints one JSON object per
// line: the machine, kernels, the per-op work and collectives, for a job of
// some number of ranks. `tessel calibrate` reads those lines as it runs the
// probe, or from files where the probe's output was saved on a machine
// without tessel's compiler (a lent GPU machine, a cluster's compute node):
// DIR/ranks-N.jsonl, one file per job size. Either way the profile is
// assembled here, so that both give the same profile for the same lines.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_TOOLS_TESSEL_PROBEOUTPUT_H
#define TESSEL_TOOLS_TESSEL_PROBEOUTPUT_H

#include "analysis/MachineProfile.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace mlir::tessel {

/// One line of the probe's output, and where it was read.
struct ProbeLine {
  nlohmann::json value;
  /// "DIR/ranks-2.jsonl:4", or "the probe's output on 2 ranks:4".
  std::string where;
};

/// What the probe printed on `ranks` ranks, read from `source`.
struct ProbeRun {
  int64_t ranks = 1;
  std::vector<ProbeLine> lines;
  std::string source;
};

/// The JSON objects of the probe's output `text`, read from `source`.
/// Lines that do not start with '{' are the launcher's and are skipped; a
/// line that starts with '{' but is not one JSON object (output cut short)
/// is an error naming `source` and the line.
std::optional<std::vector<ProbeLine>> parseProbeLines(const std::string &text,
                                                      const std::string &source,
                                                      std::string &error);

/// The runs saved in `dir` as ranks-N.jsonl, by rank count; an error where
/// there is none, or one cannot be read or parsed.
std::optional<std::vector<ProbeRun>> readProbeOutput(const std::string &dir,
                                                     std::string &error);

/// The machine the probe's --machine line describes.
struct ProbedMachine {
  std::string host;
  std::string cpu;
  /// "cpu" or "cuda".
  std::string backend;
  std::string measuredAt;
  int64_t cores = 1;
  int64_t cacheBytes = 0;
  int64_t devices = 0;
  /// "widened" or "native"; a probe of before it was recorded said
  /// nothing, and its machine computed them widened.
  ::tessel::analysis::Bf16Products bf16Products =
      ::tessel::analysis::Bf16Products::Widened;
  /// "widened" or "native"; a probe of before it was recorded apart
  /// computed them as its other products.
  ::tessel::analysis::Bf16Products bf16FilterGradients =
      ::tessel::analysis::Bf16Products::Widened;
  /// Where the line was read.
  std::string where;

  /// The largest job whose kernels and per-op time a profile takes: one
  /// rank a core, or a device for the CUDA backend (a batch of
  /// back-to-back calls on shared cores does not share them as a step
  /// does; MachineProfile::kernelSeconds slows a larger job instead).
  int64_t kernelRanks() const { return backend == "cuda" ? devices : cores; }
};

/// The first machine line of `runs`: an error where there is none, or it
/// lacks a field, names an unknown backend, or a machine of no cores or
/// devices.
std::optional<ProbedMachine> probedMachine(const std::vector<ProbeRun> &runs,
                                           std::string &error);

/// The profile of `runs`, which must include the probe's --machine line
/// and each end with the probe's end line (a job that stopped early is
/// an error, not a shorter measurement).
/// Kernels and the per-op time come from jobs of no more ranks than
/// ProbedMachine::kernelRanks, collectives from
/// every job, fitted per collective, job and group size; the machine and
/// the time from the machine line. `description` replaces "measured on
/// HOST". The memory section is left to the caller.
std::optional<::tessel::analysis::MachineProfile>
assembleProfile(const std::vector<ProbeRun> &runs,
                const std::string &description, std::string &error);

} // namespace mlir::tessel

#endif // TESSEL_TOOLS_TESSEL_PROBEOUTPUT_H
