//===- Profile.cpp - Where a training step's time goes, op by op ----------===//

#include "driver/Profile.h"

#include "driver/RankFigures.h"
#include "executor/Execute.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace tessel::driver {

/// Whether the op moves data between ranks (shard_slice only copies).
static bool communicates(const std::string &op) {
  static const char *const kinds[] = {
      "tessel.all_reduce", "tessel.all_gather",    "tessel.reduce_scatter",
      "tessel.all_to_all", "tessel.halo_exchange", "tessel.collective_permute"};
  return std::find(std::begin(kinds), std::end(kinds), op) != std::end(kinds);
}

/// This rank's seconds in the collectives' calls among `sites`.
static double waitedSeconds(const std::vector<runtime::OpTime> &sites) {
  double waited = 0;
  for (const runtime::OpTime &site : sites)
    if (communicates(site.op))
      waited += site.seconds;
  return waited;
}

std::vector<double> gatherWaitedSeconds() {
  return gatherOnRankZero(waitedSeconds(runtime::opTimes()));
}

/// Every rank's wait per step: listed up to 8 ranks, else the least, the
/// median and the most. A rank waits in a collective for the data to move
/// and for its peers to arrive, so the ranks' waits differ by how late
/// each came (their skew), where rank 0's alone says neither.
static void printWaitsPerRank(std::FILE *out, std::vector<double> waited,
                              double perStep) {
  if (waited.size() < 2)
    return;
  auto ms = [&](double seconds) { return seconds * perStep; };
  if (waited.size() <= 8) {
    std::vector<std::string> each;
    for (size_t r = 0; r < waited.size(); ++r)
      each.push_back(fmt::format("{:.3f}", ms(waited[r])));
    fmt::print(out, "  waited per rank, ms per step: {} (ranks 0 to {})\n",
               fmt::join(each, ", "), waited.size() - 1);
    return;
  }
  auto [least, most] = std::minmax_element(waited.begin(), waited.end());
  std::vector<double> sorted = waited;
  std::sort(sorted.begin(), sorted.end());
  fmt::print(out,
             "  waited per rank, ms per step: least {:.3f} (rank {}), median "
             "{:.3f}, most {:.3f} (rank {})\n",
             ms(*least), least - waited.begin(), ms(sorted[sorted.size() / 2]),
             ms(*most), most - waited.begin());
}

/// The communication's time: what the rank waited for (its time in the
/// collectives' calls) and how long collectives it had started moved while
/// it ran other ops; then every rank's wait where given.
static void printCommunication(std::FILE *out,
                               const std::vector<runtime::OpTime> &sites,
                               double perStep,
                               const std::vector<double> &waitedPerRank) {
  double waited = waitedSeconds(sites);
  double overlapped = runtime::overlappedSeconds();
  if (waited > 0 || overlapped > 0)
    fmt::print(out,
               "  communication: {:.3f} ms per step waited for; collectives in "
               "flight behind other ops for {:.3f} ms per step\n",
               waited * perStep, overlapped * perStep);
  // Other ranks may wait where rank 0 does not (a pipeline's stages).
  if (std::any_of(waitedPerRank.begin(), waitedPerRank.end(),
                  [](double seconds) { return seconds > 0; }))
    printWaitsPerRank(out, waitedPerRank, perStep);
}

/// The call sites that ran reference kernels (a slow path: no fast kernel
/// took the op), costliest first, or "none"; `sites` is sorted so.
template <typename Row>
static void printReferenceKernels(std::FILE *out,
                                  const std::vector<runtime::OpTime> &sites,
                                  int64_t steps, const Row &row) {
  int64_t calls = 0;
  for (const runtime::OpTime &site : sites)
    calls += site.referenceCalls;
  if (calls == 0) {
    fmt::print(out, "  reference kernels (slow paths): none\n");
    return;
  }
  fmt::print(out,
             "  reference kernels (slow paths): {:.0f} calls per step, at:\n",
             static_cast<double>(calls) / steps);
  for (const runtime::OpTime &site : sites)
    if (site.referenceCalls > 0)
      row(site, site.op + " at " + site.loc);
}

void printOpProfile(std::FILE *out, int64_t steps, int topSites,
                    const std::vector<double> &waitedPerRank) {
  std::vector<runtime::OpTime> sites = runtime::opTimes();
  if (sites.empty() || steps <= 0)
    return;
  double total = 0;
  int64_t calls = 0;
  std::map<std::string, runtime::OpTime> byOp;
  for (const runtime::OpTime &site : sites) {
    total += site.seconds;
    calls += site.calls;
    runtime::OpTime &kind = byOp[site.op];
    kind.op = site.op;
    kind.calls += site.calls;
    kind.seconds += site.seconds;
  }
  auto costliestFirst = [](const runtime::OpTime &a, const runtime::OpTime &b) {
    return a.seconds > b.seconds;
  };
  std::vector<runtime::OpTime> kinds;
  for (auto &[name, kind] : byOp)
    kinds.push_back(kind);
  std::sort(kinds.begin(), kinds.end(), costliestFirst);
  std::sort(sites.begin(), sites.end(), costliestFirst);

  double perStep = 1e3 / static_cast<double>(steps);
  fmt::print(out,
             "op profile of rank 0: {:.3f} ms of kernels per step, {:.0f} "
             "calls per step\n",
             total * perStep, static_cast<double>(calls) / steps);
  fmt::print(out, "  {:>9} {:>6} {:>7} {:>9}  {}\n", "ms/step", "%", "calls",
             "us/call", "op");
  auto row = [&](const runtime::OpTime &time, const std::string &what) {
    fmt::print(out, "  {:9.3f} {:6.1f} {:7.0f} {:9.2f}  {}\n",
               time.seconds * perStep, 100 * time.seconds / total,
               static_cast<double>(time.calls) / steps,
               1e6 * time.seconds / static_cast<double>(time.calls), what);
  };
  for (const runtime::OpTime &kind : kinds)
    row(kind, kind.op);
  printCommunication(out, sites, perStep, waitedPerRank);
  printReferenceKernels(out, sites, steps, row);
  fmt::print(out, "  costliest call sites:\n");
  int listed = static_cast<int>(sites.size());
  if (topSites > 0)
    listed = std::min(listed, topSites);
  for (int i = 0; i < listed; ++i)
    row(sites[i], sites[i].op + " at " + sites[i].loc);
  std::fflush(out);
}

} // namespace tessel::driver
