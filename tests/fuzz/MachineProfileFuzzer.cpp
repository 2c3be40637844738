//===- MachineProfileFuzzer.cpp - libFuzzer target for machine profiles ---===//
//
// Feeds arbitrary bytes, as a machine profile (the JSON `tessel calibrate`
// writes and `tessel search --profile` and `explain --profile` read), to
// parseMachineProfile. Any error is a correct answer; a crash or a
// sanitizer report is a bug. Beyond not crashing, a refusal must name the
// file, an accepted profile must write back (formatMachineProfile) to a
// profile that reads again with the same kernels and collectives, and its
// predictions for a range of kernel sizes, collective sizes and rank counts
// (and the per-op time) must be finite and not negative.
//
//===----------------------------------------------------------------------===//

#include "Require.h"
#include "analysis/MachineProfile.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace tessel::analysis;

namespace {

/// Aborts, naming this fuzzer, when the reader breaks the promise `what`.
void require(bool condition, const char *what) {
  tessel::fuzz::requireOrAbort(condition, "MachineProfileFuzzer", what);
}

bool usable(double seconds) { return std::isfinite(seconds) && seconds >= 0; }

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string text(reinterpret_cast<const char *>(data), size);
  std::string error;
  std::optional<MachineProfile> profile =
      parseMachineProfile(text, "fuzz.json", error);
  if (!profile) {
    require(error.rfind("fuzz.json: ", 0) == 0,
            "a refusal does not name the file");
    return 0;
  }
  std::optional<MachineProfile> again =
      parseMachineProfile(formatMachineProfile(*profile), "again.json", error);
  require(again.has_value(), "an accepted profile does not read back");
  require(again->kernels.size() == profile->kernels.size() &&
              again->collectives.size() == profile->collectives.size(),
          "a profile read back has other kernels or collectives");
  for (int64_t ranks : {int64_t(1), int64_t(3), int64_t(1) << 31}) {
    require(usable(profile->perOpSeconds(ranks)) &&
                again->perOpSeconds(ranks) == profile->perOpSeconds(ranks),
            "the per-op time is negative, infinite or NaN, or changes when "
            "written back");
    for (int64_t work : {int64_t(0), int64_t(1), int64_t(1) << 20,
                         int64_t(0x7fffffffffffffff)}) {
      for (const std::string &opClass : kernelClasses())
        require(usable(profile->kernelSeconds(opClass, work, ranks)),
                "a kernel time is negative, infinite or NaN");
      for (const std::string &collective : profiledCollectives())
        for (int64_t group : {int64_t(2), int64_t(64)})
          require(usable(profile->collectiveSeconds(collective, group, work,
                                                    ranks)),
                  "a collective time is negative, infinite or NaN");
    }
  }
  return 0;
}
