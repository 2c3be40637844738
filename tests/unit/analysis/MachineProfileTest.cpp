//===- MachineProfileTest.cpp - machine profiles and their predictions ----===//
//
// The figures of a profile are made up here, so that each prediction can
// be worked out by hand.
//
//===----------------------------------------------------------------------===//

#include "analysis/MachineProfile.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace tessel::analysis;

namespace {

/// Kernels: every class takes 1 us for work 100, 10 us for 10000 and
/// 1 ms for 1000000, on 1 rank; twice as long on 2 ranks.
MachineProfile madeUpProfile() {
  MachineProfile profile;
  profile.source = "made up";
  profile.description = "made up";
  profile.cores = 2;
  for (int64_t ranks : {1, 2}) {
    KernelRates rates;
    rates.ranks = ranks;
    rates.threads = 2 / ranks;
    for (const std::string &opClass : kernelClasses())
      rates.classes[opClass] = {
          {100, 1e-6 * ranks}, {10000, 1e-5 * ranks}, {1000000, 1e-3 * ranks}};
    profile.kernels.push_back(rates);
  }
  CollectiveFit allReduce;
  allReduce.collective = "all_reduce";
  allReduce.ranks = 2;
  allReduce.group = 2;
  allReduce.alphaSeconds = 1e-5;
  allReduce.bytesPerSecond = 1e9;
  profile.collectives.push_back(allReduce);
  CollectiveFit halo = allReduce;
  halo.collective = "halo_exchange";
  halo.alphaSeconds = 2e-6;
  profile.collectives.push_back(halo);
  return profile;
}

TEST(MachineProfile, FitRecoversLatencyAndBandwidth) {
  CollectiveFit fit;
  for (int64_t bytes : {4096, 65536, 1048576, 16777216})
    fit.points.push_back({bytes, 1e-5 + bytes / 2e9});
  fitAlphaBeta(fit);
  EXPECT_NEAR(fit.alphaSeconds, 1e-5, 1e-12);
  EXPECT_NEAR(fit.bytesPerSecond, 2e9, 1e-3 * 2e9);
}

TEST(MachineProfile, FitNeverGivesANegativeLatency) {
  // Times that grow faster than the bytes would fit a negative latency.
  CollectiveFit fit;
  fit.points = {{1000, 1e-7}, {2000, 1e-6}, {4000, 1e-5}};
  fitAlphaBeta(fit);
  EXPECT_EQ(fit.alphaSeconds, 0);
  EXPECT_GT(fit.bytesPerSecond, 0);
}

TEST(MachineProfile, KernelTimesInterpolateAndExtrapolate) {
  MachineProfile profile = madeUpProfile();
  // Below the smallest size: the call's fixed cost.
  EXPECT_DOUBLE_EQ(profile.kernelSeconds("matmul", 1, 1), 1e-6);
  EXPECT_DOUBLE_EQ(profile.kernelSeconds("matmul", 0, 1), 1e-6);
  // A measured size, and halfway between two in log-log.
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 1), 1e-5, 1e-15);
  EXPECT_NEAR(profile.kernelSeconds("matmul", 1000, 1), std::sqrt(1e-6 * 1e-5),
              1e-15);
  // Above the largest: the largest size's rate.
  EXPECT_NEAR(profile.kernelSeconds("reduction", 3000000, 1), 3e-3, 1e-12);
  // The job size measured decides the rate.
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 2), 2e-5, 1e-15);
  // 8 ranks on 2 cores, measured up to 2 ranks: each rank's share of the
  // cores is a quarter of what it was.
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 8), 8e-5, 1e-15);
  // A class the profile lacks costs nothing rather than a guess.
  EXPECT_EQ(profile.kernelSeconds("no such class", 10000, 1), 0);
}

TEST(MachineProfile, MoreRanksThanCoresAreTimedFromOneRankACore) {
  // A 4-rank job measured on the 2 cores, whose batches did not share them
  // as a step does: ignored while a job of no more ranks than cores was
  // measured, whose times slow down in proportion.
  MachineProfile profile = madeUpProfile();
  KernelRates oversubscribed = profile.kernels[1];
  oversubscribed.ranks = 4;
  oversubscribed.perOpSeconds = 9e-7;
  for (auto &[opClass, points] : oversubscribed.classes)
    for (KernelPoint &point : points)
      point.seconds /= 4;
  profile.kernels.push_back(oversubscribed);
  profile.kernels[1].perOpSeconds = 5e-7;
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 4), 2 * 2e-5, 1e-15);
  EXPECT_DOUBLE_EQ(profile.perOpSeconds(4), 2 * 5e-7);
  // On 4 cores the 4-rank job is one rank a core: its own times.
  profile.cores = 4;
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 4), 2e-5 / 4, 1e-15);
  EXPECT_DOUBLE_EQ(profile.perOpSeconds(4), 9e-7);
  // A profile with only oversubscribed jobs still times from them.
  profile.cores = 1;
  profile.kernels.erase(profile.kernels.begin());
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 2), 2e-5, 1e-15);
}

TEST(MachineProfile, TranscendentalOpsHaveTheirOwnRate) {
  MachineProfile profile = madeUpProfile();
  for (KernelRates &rates : profile.kernels)
    rates.classes["transcendental"] = {{100, 5e-6 * rates.ranks},
                                       {1000000, 5e-3 * rates.ranks}};
  EXPECT_NEAR(profile.kernelSeconds("transcendental", 100, 1), 5e-6, 1e-15);
  EXPECT_NEAR(profile.kernelSeconds("elementwise", 100, 1), 1e-6, 1e-15);
  EXPECT_NEAR(profile.kernelSeconds("transcendental", 1000000, 2), 1e-2, 1e-12);
  // It is written and read back with the others.
  std::string error;
  std::optional<MachineProfile> read =
      parseMachineProfile(formatMachineProfile(profile), "round trip", error);
  ASSERT_TRUE(read) << error;
  EXPECT_NEAR(read->kernelSeconds("transcendental", 100, 1), 5e-6, 1e-15);
}

TEST(MachineProfile, TheMemorySectionIsWrittenOnlyWhenMeasured) {
  MachineProfile profile = madeUpProfile();
  std::string error;
  std::optional<MachineProfile> read =
      parseMachineProfile(formatMachineProfile(profile), "without", error);
  ASSERT_TRUE(read) << error;
  EXPECT_FALSE(read->hasMemory);
  EXPECT_EQ(formatMachineProfile(profile).find("\"memory\""),
            std::string::npos);
  profile.hasMemory = true;
  profile.driverBytes = 28520448;
  profile.imageLoadBytes = 119275520;
  profile.imageResidentBytes = 47100000;
  read = parseMachineProfile(formatMachineProfile(profile), "with", error);
  ASSERT_TRUE(read) << error;
  EXPECT_TRUE(read->hasMemory);
  EXPECT_EQ(read->driverBytes, 28520448);
  EXPECT_EQ(read->imageLoadBytes, 119275520);
  EXPECT_EQ(read->imageResidentBytes, 47100000);
  // Call sites unpriced, as in a profile calibrated before they were.
  EXPECT_EQ(read->callSitesBytes(1000), 0);
  profile.driverCallSites = 162;
  profile.callSiteBytes = 5525;
  read = parseMachineProfile(formatMachineProfile(profile), "sites", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->driverCallSites, 162);
  EXPECT_EQ(read->callSiteBytes, 5525);
}

TEST(MachineProfile, AnOlderProfileTimesTranscendentalOpsAsElementwise) {
  // A profile written before the class existed: its JSON has no
  // "transcendental" points.
  MachineProfile older = madeUpProfile();
  for (KernelRates &rates : older.kernels)
    rates.classes.erase("transcendental");
  std::string text = formatMachineProfile(older);
  EXPECT_EQ(text.find("transcendental"), std::string::npos);
  std::string error;
  std::optional<MachineProfile> read =
      parseMachineProfile(text, "older.json", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->kernels[0].classes.count("transcendental"), 0u);
  for (int64_t ranks : {1, 2})
    for (int64_t work : {10, 1000, 3000000})
      EXPECT_EQ(read->kernelSeconds("transcendental", work, ranks),
                read->kernelSeconds("elementwise", work, ranks));
  // Written again, it still lacks the class rather than claiming a
  // measurement.
  EXPECT_EQ(formatMachineProfile(*read), text);
  // A class every profile must have is still required.
  EXPECT_FALSE(kernelClassFallback("elementwise"));
}

TEST(MachineProfile, PerOpTimeOfTheNearestJob) {
  MachineProfile profile = madeUpProfile();
  profile.kernels[0].perOpSeconds = 2e-7;
  profile.kernels[1].perOpSeconds = 5e-7;
  EXPECT_DOUBLE_EQ(profile.perOpSeconds(1), 2e-7);
  EXPECT_DOUBLE_EQ(profile.perOpSeconds(2), 5e-7);
  // 8 ranks on 2 cores, measured up to 2: a quarter of the cores each, as
  // for kernels.
  EXPECT_DOUBLE_EQ(profile.perOpSeconds(8), 2e-6);
  // Written and read back with the kernels.
  std::string error;
  std::string text = formatMachineProfile(profile);
  EXPECT_NE(text.find("\"per_op_seconds\": 5e-07"), std::string::npos) << text;
  std::optional<MachineProfile> read =
      parseMachineProfile(text, "round trip", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->kernels[1].perOpSeconds, 5e-7);
  EXPECT_EQ(formatMachineProfile(*read), text);
  // Only the 2-rank job measured it: every job size uses that one.
  profile.kernels[0].perOpSeconds.reset();
  EXPECT_DOUBLE_EQ(profile.perOpSeconds(1), 5e-7);
}

TEST(MachineProfile, AnOlderProfileHasNoPerOpTime) {
  // A profile written before the per-op time was measured reads, and
  // predicts as it did: nothing per op beyond the kernels.
  MachineProfile older = madeUpProfile();
  std::string text = formatMachineProfile(older);
  EXPECT_EQ(text.find("per_op_seconds"), std::string::npos);
  std::string error;
  std::optional<MachineProfile> read =
      parseMachineProfile(text, "older.json", error);
  ASSERT_TRUE(read) << error;
  EXPECT_FALSE(read->kernels[0].perOpSeconds);
  EXPECT_EQ(read->perOpSeconds(1), 0);
  EXPECT_EQ(read->perOpSeconds(64), 0);
  EXPECT_EQ(formatMachineProfile(*read), text);
}

TEST(MachineProfile, CollectiveTimes) {
  MachineProfile profile = madeUpProfile();
  EXPECT_NEAR(profile.collectiveSeconds("all_reduce", 2, 1000000, 2),
              1e-5 + 1e-3, 1e-15);
  // A group of one sends nothing.
  EXPECT_EQ(profile.collectiveSeconds("all_reduce", 1, 1000000, 2), 0);
  // A larger group than measured: a ring of g - 1 = 7 steps, one each on
  // 2 ranks; the same bandwidth.
  EXPECT_NEAR(profile.collectiveSeconds("all_reduce", 8, 1000000, 8),
              7e-5 + 1e-3, 1e-15);
  // A permute is point to point, like a halo exchange.
  EXPECT_NEAR(profile.collectiveSeconds("collective_permute", 2, 1000, 2),
              2e-6 + 1e-6, 1e-15);
}

TEST(MachineProfile, StartedCollectivesAreTimedFromTheirOwnFits) {
  MachineProfile profile = madeUpProfile();
  // Without started fits, a started all-reduce is timed as the blocking one
  // (a profile calibrated before the two were timed apart).
  EXPECT_DOUBLE_EQ(profile.collectiveSeconds("all_reduce", 2, 1000000, 2,
                                             /*started=*/true),
                   profile.collectiveSeconds("all_reduce", 2, 1000000, 2));
  // A started fit with five times the latency: only started calls take it,
  // also extrapolated to larger groups (7 steps of 50 us).
  CollectiveFit started = profile.collectives[0];
  started.started = true;
  started.alphaSeconds = 5e-5;
  profile.collectives.push_back(started);
  EXPECT_NEAR(profile.collectiveSeconds("all_reduce", 2, 1000000, 2),
              1e-5 + 1e-3, 1e-15);
  EXPECT_NEAR(profile.collectiveSeconds("all_reduce", 2, 1000000, 2,
                                        /*started=*/true),
              5e-5 + 1e-3, 1e-15);
  EXPECT_NEAR(profile.collectiveSeconds("all_reduce", 8, 1000000, 8,
                                        /*started=*/true),
              7 * 5e-5 + 1e-3, 1e-15);
  // The halo exchange has no started fit: its own blocking one.
  EXPECT_NEAR(profile.collectiveSeconds("halo_exchange", 2, 1000, 2,
                                        /*started=*/true),
              2e-6 + 1e-6, 1e-15);

  // A job size and group timed blocking only (a profile assembled from a
  // newer probe's 2-rank output and an older one's 4-rank output): a
  // started call there takes its blocking fit, not the started one of
  // another job extrapolated.
  CollectiveFit four = profile.collectives[0];
  four.ranks = 4;
  four.group = 4;
  four.alphaSeconds = 3e-5;
  MachineProfile mixed = profile;
  mixed.collectives.push_back(four);
  EXPECT_NEAR(mixed.collectiveSeconds("all_reduce", 4, 1000000, 4,
                                      /*started=*/true),
              3e-5 + 1e-3, 1e-15);
  EXPECT_NEAR(mixed.collectiveSeconds("all_reduce", 2, 1000000, 2,
                                      /*started=*/true),
              5e-5 + 1e-3, 1e-15);
  // A group larger than any timed: extrapolated from the largest, the
  // 4-rank group timed blocking only (7 steps of its 10 us a step).
  EXPECT_NEAR(mixed.collectiveSeconds("all_reduce", 8, 1000000, 8,
                                      /*started=*/true),
              7e-5 + 1e-3, 1e-15);

  // Written with "started" and read back; blocking fits are written as
  // before, without it.
  std::string text = formatMachineProfile(profile);
  EXPECT_EQ(text.find("\"started\": false"), std::string::npos);
  std::string error;
  std::optional<MachineProfile> read =
      parseMachineProfile(text, "round trip", error);
  ASSERT_TRUE(read) << error;
  ASSERT_EQ(read->collectives.size(), 3u);
  EXPECT_FALSE(read->collectives[0].started);
  EXPECT_TRUE(read->collectives[2].started);
  EXPECT_EQ(formatMachineProfile(*read), text);
  size_t at = text.find("\"started\": true");
  ASSERT_NE(at, std::string::npos);
  EXPECT_EQ(parseMachineProfile(text.replace(at, 15, "\"started\": \"yes\""),
                                "p.json", error),
            std::nullopt);
  EXPECT_EQ(error, "p.json: collectives[2]: 'started' must be true or false");
}

TEST(MachineProfile, TheOverlapFractionIsReadAndWrittenWhereMeasured) {
  MachineProfile profile = madeUpProfile();
  std::string older = formatMachineProfile(profile);
  EXPECT_EQ(older.find("overlap_fraction"), std::string::npos);
  profile.overlapFraction = 0.25;
  std::string error;
  std::optional<MachineProfile> read =
      parseMachineProfile(formatMachineProfile(profile), "p.json", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->overlapFraction, 0.25);
  std::optional<MachineProfile> readOlder =
      parseMachineProfile(older, "p.json", error);
  ASSERT_TRUE(readOlder) << error;
  EXPECT_FALSE(readOlder->overlapFraction);
  for (const char *bad : {"1.5", "-0.1", "\"none\""}) {
    std::string text = formatMachineProfile(profile);
    size_t at = text.find("0.25");
    ASSERT_NE(at, std::string::npos);
    EXPECT_FALSE(
        parseMachineProfile(text.replace(at, 4, bad), "p.json", error));
    EXPECT_EQ(error, "p.json: machine: 'overlap_fraction' must be a number "
                     "from 0 to 1");
  }
}

TEST(MachineProfile, FormatReadsBack) {
  MachineProfile profile = madeUpProfile();
  profile.collectives[0].points = {{4096, 1.4e-5}};
  std::string error;
  std::optional<MachineProfile> read =
      parseMachineProfile(formatMachineProfile(profile), "round trip", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->cores, 2);
  ASSERT_EQ(read->kernels.size(), 2u);
  EXPECT_EQ(read->kernels[1].ranks, 2);
  EXPECT_EQ(read->kernels[1].classes.at("convolution").back().work, 1000000);
  ASSERT_EQ(read->collectives.size(), 2u);
  EXPECT_EQ(read->collectives[0].points.size(), 1u);
  EXPECT_DOUBLE_EQ(read->collectiveSeconds("all_reduce", 2, 1000, 2),
                   profile.collectiveSeconds("all_reduce", 2, 1000, 2));
  EXPECT_EQ(formatMachineProfile(*read), formatMachineProfile(profile));
}

/// The error of reading `text`, or "" when it reads.
std::string errorOf(const std::string &text) {
  std::string error;
  return parseMachineProfile(text, "p.json", error) ? "" : error;
}

/// The made-up profile's text with its first `from` replaced by `to`, each
/// case below one such edit of a profile that reads.
std::string editedProfile(const std::string &from, const std::string &to) {
  std::string text = formatMachineProfile(madeUpProfile());
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return text.replace(at, from.size(), to);
}

TEST(MachineProfile, MalformedProfilesAreClearErrors) {
  EXPECT_EQ(errorOf("[1, 2"), "p.json: not a JSON object");
  EXPECT_EQ(errorOf(R"({"format": "other", "version": 1})"),
            "p.json: 'format' must be \"tessel-machine-profile\" (write "
            "profiles with tessel calibrate)");
  EXPECT_EQ(errorOf(R"({"format": "tessel-machine-profile", "version": 3})"),
            "p.json: 'version' must be 2");
  // A profile of before the convolutions' channel blocks says what to do.
  EXPECT_EQ(errorOf(R"({"format": "tessel-machine-profile", "version": 1})"),
            "p.json: 'version' must be 2 (version 1 counted convolutions' "
            "work in plain FLOPs, version 2 with their channels in whole "
            "blocks of 16: run tessel calibrate again)");

  EXPECT_EQ(errorOf(editedProfile("\"matmul\"", "\"matmull\"")),
            "p.json: kernels[0]: class 'matmul' needs a non-empty array of "
            "points");
  EXPECT_EQ(errorOf(editedProfile("\"seconds\": 1e-06", "\"seconds\": -1e-06")),
            "p.json: kernels[0].matmul[0]: 'seconds' must be positive, not "
            "-1e-06");
  EXPECT_EQ(errorOf(editedProfile("\"seconds\": 1e-06", "\"seconds\": 1e-12")),
            "p.json: kernels[0].matmul[0]: 1e-12 s per call is below a "
            "nanosecond");
  EXPECT_EQ(
      errorOf(editedProfile("\"bandwidth_bytes_per_second\": 1000000000.0",
                            "\"bandwidth_bytes_per_second\": 1e15")),
      "p.json: collectives[0]: implausible fit (alpha 1e-05 s, 1e+15 bytes/s)");
  EXPECT_EQ(errorOf(editedProfile("\"all_reduce\"", "\"all_reduction\"")),
            "p.json: collectives[0]: unknown collective 'all_reduction'");
  EXPECT_EQ(errorOf(editedProfile("\"cores\": 2", "\"cores\": \"two\"")),
            "p.json: machine: 'cores' must be a number");
  // Counts past int64_t were converted from double regardless (undefined
  // behaviour; issue 24, overflow).
  EXPECT_EQ(errorOf(editedProfile("\"ranks\": 1", "\"ranks\": 1e300")),
            "p.json: kernels[0]: 'ranks' must be a count from 1 to 2^63 - 1, "
            "not 1e+300");
  EXPECT_EQ(errorOf(editedProfile("\"work\": 100", "\"work\": 1e19")),
            "p.json: kernels[0].matmul[0]: 'work' must be a count from 1 to "
            "2^63 - 1, not 1e+19");
  EXPECT_EQ(errorOf(editedProfile("\"threads\": 2", "\"threads\": -1")),
            "p.json: kernels[0]: 'threads' must be a count from 0 to 2^63 - "
            "1, not -1");

  // The per-op time: a number of seconds from 0 to a millisecond.
  auto perOp = [&](const std::string &value) {
    return editedProfile("\"threads\": 1,",
                         "\"threads\": 1, \"per_op_seconds\": " + value + ",");
  };
  EXPECT_EQ(errorOf(perOp("0")), "");
  EXPECT_EQ(errorOf(perOp("4e-07")), "");
  EXPECT_EQ(errorOf(perOp("-1e-07")),
            "p.json: kernels[1]: 'per_op_seconds' must be from 0 to 0.001 s, "
            "not -1e-07");
  EXPECT_EQ(errorOf(perOp("0.5")),
            "p.json: kernels[1]: 'per_op_seconds' must be from 0 to 0.001 s, "
            "not 0.5");
  // Past a double's range, the JSON does not parse.
  EXPECT_EQ(errorOf(perOp("1e999")), "p.json: not a JSON object");
  EXPECT_EQ(errorOf(perOp("\"fast\"")),
            "p.json: kernels[1]: 'per_op_seconds' must be a number");
  EXPECT_EQ(errorOf(perOp("null")),
            "p.json: kernels[1]: 'per_op_seconds' must be a number");
}

// A key given twice kept its last value and an unknown top-level key was
// ignored (a misspelt "memroy" read as a profile without its memory).
TEST(MachineProfile, RepeatedAndUnknownKeysAreClearErrors) {
  ASSERT_EQ(errorOf(formatMachineProfile(madeUpProfile())), "");
  EXPECT_EQ(errorOf(editedProfile("\"version\": 2",
                                  "\"version\": 2, \"version\": 2")),
            "p.json: key 'version' is given twice");
  EXPECT_EQ(
      errorOf(editedProfile("\"cores\": 2", "\"cores\": 2, \"cores\": 64")),
      "p.json: machine: key 'cores' is given twice");
  EXPECT_EQ(errorOf(editedProfile("\"threads\": 1,",
                                  "\"threads\": 1, \"threads\": 8,")),
            "p.json: kernels[1]: key 'threads' is given twice");
  EXPECT_EQ(errorOf(editedProfile("\"matmul\"", "\"matmul\": [], \"matmul\"")),
            "p.json: kernels[0].classes: key 'matmul' is given twice");
  EXPECT_EQ(
      errorOf(editedProfile("\"bandwidth_bytes_per_second\"",
                            "\"group\": 2, \"bandwidth_bytes_per_second\"")),
      "p.json: collectives[0]: key 'group' is given twice");
  // The same key in two objects is no repeat.
  EXPECT_EQ(
      errorOf(editedProfile("\"machine\": {", "\"machine\": {\"version\": 1,")),
      "");
  EXPECT_EQ(errorOf(editedProfile("\"version\": 2",
                                  "\"version\": 2, \"memroy\": {}")),
            "p.json: unknown key 'memroy' (a profile has 'format', "
            "'version', 'machine', 'kernels', 'collectives' and 'memory')");
  EXPECT_EQ(errorOf(editedProfile(
                "\"version\": 2",
                "\"version\": 2, \"memory\": {\"driver_bytes\": 1, "
                "\"image_load_bytes\": 2, \"image_resident_bytes\": "
                "3}")),
            "");
}

TEST(MachineProfile, CallSitesArePricedBeyondTheDriversProgram) {
  MachineProfile profile = madeUpProfile();
  profile.driverCallSites = 100;
  profile.callSiteBytes = 4000;
  EXPECT_EQ(profile.callSitesBytes(100), 0);
  EXPECT_EQ(profile.callSitesBytes(350), 250 * 4000);
  // A shorter program than the driver's holds less than driver_bytes.
  EXPECT_EQ(profile.callSitesBytes(40), -60 * 4000);
  EXPECT_EQ(errorOf(editedProfile(
                "\"version\": 2",
                "\"version\": 2, \"memory\": {\"driver_bytes\": 1, "
                "\"driver_call_sites\": 2.5, \"call_site_bytes\": 1, "
                "\"image_load_bytes\": 2, "
                "\"image_resident_bytes\": 3}")),
            "p.json: memory: 'driver_call_sites' must be a count");
  // One without the other would price the driver's own call sites again.
  EXPECT_EQ(errorOf(editedProfile(
                "\"version\": 2",
                "\"version\": 2, \"memory\": {\"driver_bytes\": 1, "
                "\"call_site_bytes\": 4000, \"image_load_bytes\": 2, "
                "\"image_resident_bytes\": 3}")),
            "p.json: memory: 'driver_call_sites' and 'call_site_bytes' go "
            "together");
}

TEST(MachineProfile, TheDefaultProfileReads) {
  const MachineProfile &profile = defaultMachineProfile();
  EXPECT_EQ(profile.source, "built-in default profile");
  EXPECT_FALSE(profile.description.empty());
  std::vector<int64_t> ranks;
  for (const KernelRates &rates : profile.kernels)
    ranks.push_back(rates.ranks);
  // Kernels on one rank a core at most (the container has 2 cores).
  EXPECT_EQ(ranks, (std::vector<int64_t>{1, 2}));
  // Every job size measured its transcendental rate (a gelu), well above an
  // add's per element.
  for (const KernelRates &rates : profile.kernels) {
    EXPECT_EQ(rates.classes.count("transcendental"), 1u) << rates.ranks;
    EXPECT_GT(profile.kernelSeconds("transcendental", 1 << 20, rates.ranks),
              2 * profile.kernelSeconds("elementwise", 1 << 20, rates.ranks))
        << rates.ranks;
  }
  EXPECT_GT(profile.collectiveSeconds("all_reduce", 4, 1 << 20, 4), 0);
  // Every job size measured a compiled program's per-op time: more than
  // nothing, less than the smallest kernel call's.
  for (const KernelRates &rates : profile.kernels) {
    ASSERT_TRUE(rates.perOpSeconds) << rates.ranks;
    EXPECT_GT(*rates.perOpSeconds, 0) << rates.ranks;
    EXPECT_LT(*rates.perOpSeconds, 1e-5) << rates.ranks;
  }
}

} // namespace

TEST(MachineProfile, ColdKernelsAreTimedWhereMeasured) {
  MachineProfile profile = madeUpProfile();
  EXPECT_FALSE(profile.hasColdKernels());
  // Without cold points a cold call is timed as a warm one.
  EXPECT_DOUBLE_EQ(profile.kernelSeconds("matmul", 10000, 1, /*cold=*/true),
                   profile.kernelSeconds("matmul", 10000, 1));
  // Cold points three times the warm ones, but at the smallest size, where
  // a cold call measured faster than the batch (a rank's peers off its
  // core): never below the warm time.
  for (KernelRates &rates : profile.kernels)
    for (auto &[opClass, points] : rates.classes)
      for (KernelPoint &point : points)
        point.coldSeconds =
            point.work == 100 ? point.seconds / 2 : 3 * point.seconds;
  EXPECT_FALSE(profile.hasColdKernels()) << "the caches are unknown";
  profile.cacheBytes = 32 << 20;
  EXPECT_TRUE(profile.hasColdKernels());
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 1, true), 3e-5, 1e-15);
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 1, false), 1e-5, 1e-15);
  EXPECT_NEAR(profile.kernelSeconds("matmul", 100, 1, true), 1e-6, 1e-15);
  // Written and read again: the cold times and the caches survive.
  std::string error;
  std::optional<MachineProfile> read =
      parseMachineProfile(formatMachineProfile(profile), "cold.json", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->cacheBytes, 32 << 20);
  EXPECT_NEAR(read->kernelSeconds("reduction", 10000, 2, true), 6e-5, 1e-15);
}

TEST(MachineProfile, AColdTimeMustBePositive) {
  MachineProfile profile = madeUpProfile();
  profile.kernels[0].classes["matmul"][1].coldSeconds = 1e-5;
  std::string text = formatMachineProfile(profile);
  size_t at = text.find("\"cold_seconds\": 1e-05");
  ASSERT_NE(at, std::string::npos) << text.substr(0, 600);
  text.replace(at, 21, "\"cold_seconds\": -1.0");
  std::string error;
  EXPECT_FALSE(parseMachineProfile(text, "p.json", error));
  EXPECT_NE(error.find("cold_seconds"), std::string::npos) << error;
}

TEST(MachineProfile, NarrowTypesAreTimedByTheirOwnPointsWhereMeasured) {
  MachineProfile profile = madeUpProfile();
  // bf16 matmuls measured at half the f32 time on 1 rank; nothing in f16.
  profile.kernels[0].narrowClasses["bf16"]["matmul"] = {{100, 5e-7},
                                                        {10000, 5e-6}};
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 1, false, "bf16"), 5e-6,
              1e-15);
  // Above the largest bf16 point: its rate, not f32's.
  EXPECT_NEAR(profile.kernelSeconds("matmul", 20000, 1, false, "bf16"), 1e-5,
              1e-15);
  // A class, a type and a job size without narrow points: the f32 ones.
  EXPECT_NEAR(profile.kernelSeconds("reduction", 10000, 1, false, "bf16"),
              1e-5, 1e-15);
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 1, false, "f16"), 1e-5,
              1e-15);
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 2, false, "bf16"), 2e-5,
              1e-15);
  // Written and read again.
  std::string error;
  std::string text = formatMachineProfile(profile);
  EXPECT_NE(text.find("\"narrow_classes\""), std::string::npos);
  std::optional<MachineProfile> read =
      parseMachineProfile(text, "narrow.json", error);
  ASSERT_TRUE(read) << error;
  EXPECT_NEAR(read->kernelSeconds("matmul", 10000, 1, false, "bf16"), 5e-6,
              1e-15);
  EXPECT_EQ(formatMachineProfile(*read), text);
  // The f32 points decide whether the profile times cold kernels; narrow
  // points without cold times are timed warm, where f32 ones are cold.
  for (KernelRates &rates : profile.kernels)
    for (auto &[opClass, points] : rates.classes)
      for (KernelPoint &point : points)
        point.coldSeconds = 2 * point.seconds;
  profile.cacheBytes = 32 << 20;
  EXPECT_TRUE(profile.hasColdKernels());
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 1, true, "bf16"), 5e-6,
              1e-15);
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 1, true), 2e-5, 1e-15);
  for (KernelPoint &point : profile.kernels[0].narrowClasses["bf16"]["matmul"])
    point.coldSeconds = 3 * point.seconds;
  EXPECT_NEAR(profile.kernelSeconds("matmul", 10000, 1, true, "bf16"), 1.5e-5,
              1e-15);
}

TEST(MachineProfile, MalformedNarrowClassesAreClearErrors) {
  MachineProfile profile = madeUpProfile();
  profile.kernels[0].narrowClasses["bf16"]["matmul"] = {{100, 5e-7}};
  std::string text = formatMachineProfile(profile);
  auto edited = [&](const std::string &from, const std::string &to) {
    std::string copy = text;
    size_t at = copy.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return copy.replace(at, from.size(), to);
  };
  auto errorIn = [](const std::string &edit) {
    std::string error;
    return parseMachineProfile(edit, "p.json", error) ? "" : error;
  };
  EXPECT_EQ(errorIn(edited("\"bf16\": {", "\"f8\": {")),
            "p.json: kernels[0]: unknown element type 'f8' (expected bf16 "
            "or f16)");
  EXPECT_EQ(
      errorIn(edited("\"bf16\": {\n          \"matmul\"",
                     "\"bf16\": {\n          \"matmull\"")),
      "p.json: kernels[0].narrow_classes.bf16: unknown class "
      "'matmull' (expected matmul, matmul_thin, matmul_batched, convolution, "
      "elementwise, fused_entry, "
      "reduction, normalization, transcendental, pooling, "
      "pooling_backward)");
  profile.kernels[0].narrowClasses["bf16"]["matmul"].clear();
  EXPECT_EQ(errorIn(formatMachineProfile(profile)),
            "p.json: kernels[0].narrow_classes.bf16: class 'matmul' needs a "
            "non-empty array of points");
}

TEST(MachineProfile, Bf16ProductsAreReadAndWritten) {
  MachineProfile profile = madeUpProfile();
  std::string error;
  // A profile without them (calibrated before they were recorded) says
  // widened, as every machine then computed them.
  std::string text = formatMachineProfile(profile);
  const std::string recorded = ",\n    \"bf16_products\": \"widened\"";
  size_t at = text.find(recorded);
  ASSERT_NE(at, std::string::npos) << text.substr(0, 400);
  std::optional<MachineProfile> older = parseMachineProfile(
      text.erase(at, recorded.size()), "older.json", error);
  ASSERT_TRUE(older) << error;
  EXPECT_EQ(older->bf16Products, Bf16Products::Widened);
  profile.bf16Products = Bf16Products::Native;
  std::optional<MachineProfile> read =
      parseMachineProfile(formatMachineProfile(profile), "native.json", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->bf16Products, Bf16Products::Native);
  std::string wrong = formatMachineProfile(profile);
  wrong.replace(wrong.find("\"native\""), 8, "\"fast\"");
  EXPECT_FALSE(parseMachineProfile(wrong, "p.json", error));
  EXPECT_EQ(error, "p.json: machine: 'bf16_products' must be \"widened\" "
                   "or \"native\"");
}

TEST(MachineProfile, Bf16FilterGradientsAreReadAndWrittenApart) {
  // AMD's AVX512-BF16: products native, filter gradients widened.
  MachineProfile profile = madeUpProfile();
  profile.bf16Products = Bf16Products::Native;
  profile.bf16FilterGradients = Bf16Products::Widened;
  std::string error;
  std::string text = formatMachineProfile(profile);
  std::optional<MachineProfile> read =
      parseMachineProfile(text, "amd.json", error);
  ASSERT_TRUE(read) << error;
  EXPECT_EQ(read->bf16Products, Bf16Products::Native);
  EXPECT_EQ(read->bf16FilterGradients, Bf16Products::Widened);
  // A profile calibrated before they were recorded apart ran them as its
  // other products.
  const std::string recorded = ",\n    \"bf16_filter_gradients\": \"widened\"";
  size_t at = text.find(recorded);
  ASSERT_NE(at, std::string::npos) << text.substr(0, 400);
  std::optional<MachineProfile> older = parseMachineProfile(
      std::string(text).erase(at, recorded.size()), "older.json", error);
  ASSERT_TRUE(older) << error;
  EXPECT_EQ(older->bf16FilterGradients, Bf16Products::Native);
  std::string wrong = text;
  wrong.replace(at, recorded.size(),
                ",\n    \"bf16_filter_gradients\": \"fast\"");
  EXPECT_FALSE(parseMachineProfile(wrong, "p.json", error));
  EXPECT_EQ(error, "p.json: machine: 'bf16_filter_gradients' must be "
                   "\"widened\" or \"native\"");
}
