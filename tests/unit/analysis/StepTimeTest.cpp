//===- StepTimeTest.cpp - the classes and times of a step's kernels -------===//
//
// A made-up profile in which a transcendental function costs ten times an
// add per element, both in proportion to the elements (so that each time
// can be worked out by hand): element-wise 1e-8 s and transcendental 1e-7 s
// an element.
//
//===----------------------------------------------------------------------===//

#include "analysis/StepTime.h"

#include "dialect/MeshConversion.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/FormatVariadic.h"

#include <gtest/gtest.h>

using namespace mlir;
using namespace mlir::tessel;
using namespace ::tessel::analysis;

namespace {

/// A collective `kind` over a group of 2 in a job of 2 that takes 30 us
/// whatever it sends.
void addThirtyMicrosecondCollective(MachineProfile &profile,
                                    const std::string &kind) {
  CollectiveFit fit;
  fit.collective = kind;
  fit.ranks = 2;
  fit.group = 2;
  fit.alphaSeconds = 30e-6;
  fit.bytesPerSecond = 1e30;
  profile.collectives.push_back(fit);
}

MachineProfile madeUpProfile() {
  MachineProfile profile;
  profile.source = "made up";
  profile.cores = 1;
  KernelRates rates;
  rates.ranks = 1;
  rates.threads = 1;
  for (const std::string &opClass : kernelClasses())
    rates.classes[opClass] = {{100, 1e-6}, {1000000, 1e-2}};
  rates.classes["transcendental"] = {{100, 1e-5}, {1000000, 1e-1}};
  profile.kernels.push_back(rates);
  return profile;
}

// An add, a gelu, a fused op with one erf (and a mul), one with an exp and
// a tanh, and one with only a relu, each of 100 elements.
constexpr const char *kStep = R"mlir(
!v = !tessel.tensor<[n:100], f32>
func.func @train_step(%x: !v, %y: !v) -> !v {
  %a = tessel.add %x, %y : !v, !v -> !v
  %g = tessel.gelu %a : !v
  %f = tessel.fused %g, %x : (!v, !v) -> !v {
  ^bb0(%p: !v, %q: !v):
    %e = tessel.erf %p : !v
    %m = tessel.mul %e, %q : !v, !v -> !v
    tessel.yield %m : !v
  }
  %h = tessel.fused %f : (!v) -> !v {
  ^bb0(%p: !v):
    %e = tessel.exp %p : !v
    %t = tessel.tanh %e : !v
    tessel.yield %t : !v
  }
  %r = tessel.fused %h : (!v) -> !v {
  ^bb0(%p: !v):
    %l = tessel.relu %p : !v
    tessel.yield %l : !v
  }
  return %r : !v
}
)mlir";

class StepTimeTest : public ::testing::Test {
protected:
  StepTimeTest() { context.loadDialect<TesselDialect, func::FuncDialect>(); }

  func::FuncOp parse(const char *source) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    return *module->getOps<func::FuncOp>().begin();
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
};

TEST_F(StepTimeTest, TranscendentalOpsAndFusedBodiesHaveTheirClass) {
  func::FuncOp step = parse(kStep);
  std::vector<std::pair<std::string, int64_t>> classes;
  for (Operation &op : step.getBody().front().without_terminator())
    classes.emplace_back(kernelClassOf(&op), transcendentalOpsPerElement(&op));
  EXPECT_EQ(classes, (std::vector<std::pair<std::string, int64_t>>{
                         {"elementwise", 0},
                         {"transcendental", 1},
                         {"transcendental", 1},
                         {"transcendental", 2},
                         {"elementwise", 0}}));
}

TEST_F(StepTimeTest, TranscendentalOpsAreTimedAtTheirRate) {
  func::FuncOp step = parse(kStep);
  CostReport report;
  StepTime time = predictStepTime(step, report, madeUpProfile());
  // The add and the relu-only fused op: 100 elements each at 1e-8 s.
  EXPECT_NEAR(time.classSeconds["elementwise"], 2e-6, 1e-15);
  // The gelu and the erf fused op, 100 functions each; the exp-and-tanh
  // fused op, 200: at 1e-7 s a function.
  EXPECT_NEAR(time.classSeconds["transcendental"], 1e-5 + 1e-5 + 2e-5, 1e-15);
  // The erf fused op's mul, an entry beyond its transcendental one: 100
  // elements at 1e-8 s.
  EXPECT_NEAR(time.classSeconds["fused_entry"], 1e-6, 1e-15);
  EXPECT_NEAR(time.computeSeconds, 4.3e-5, 1e-15);
}

// Fused bodies of one, three and four entries (a constant is none), and
// one ending in a sum, over 100 elements.
constexpr const char *kFusedBodies = R"mlir(
!v = !tessel.tensor<[n:100], f32>
!s = !tessel.tensor<[], f32>
func.func @train_step(%x: !v, %y: !v) -> (!v, !v, !v, !s) {
  %one = tessel.fused %x, %y : (!v, !v) -> !v {
  ^bb0(%p: !v, %q: !v):
    %a = tessel.add %p, %q : !v, !v -> !v
    tessel.yield %a : !v
  }
  %three = tessel.fused %x, %y : (!v, !v) -> !v {
  ^bb0(%p: !v, %q: !v):
    %c = tessel.constant 2.0 : f32 -> !s
    %a = tessel.add %p, %q : !v, !v -> !v
    %m = tessel.mul %a, %c : !v, !s -> !v
    %d = tessel.sub %m, %q : !v, !v -> !v
    tessel.yield %d : !v
  }
  %four = tessel.fused %x, %y : (!v, !v) -> !v {
  ^bb0(%p: !v, %q: !v):
    %a = tessel.add %p, %q : !v, !v -> !v
    %m = tessel.mul %a, %q : !v, !v -> !v
    %d = tessel.sub %m, %p : !v, !v -> !v
    %n = tessel.max %d, %p : !v, !v -> !v
    tessel.yield %n : !v
  }
  %sum = tessel.fused %x, %y : (!v, !v) -> !s {
  ^bb0(%p: !v, %q: !v):
    %m = tessel.mul %p, %q : !v, !v -> !v
    %r = tessel.reduce sum %m : !v -> !s
    tessel.yield %r : !s
  }
  return %one, %three, %four, %sum : !v, !v, !v, !s
}
)mlir";

TEST_F(StepTimeTest, FusedBodiesCostEachFurtherEntry) {
  func::FuncOp step = parse(kFusedBodies);
  std::vector<int64_t> entries;
  for (auto fused : step.getOps<FusedOp>())
    entries.push_back(furtherFusedEntries(fused));
  EXPECT_EQ(entries, (std::vector<int64_t>{0, 2, 3, 1}));
  // Each op one element-wise pass of 100 elements (the sum's, of the 100
  // it sums) at 1e-8 s an element, and its further entries at the profile's
  // fused_entry rate: 2e-9 s an element and entry.
  MachineProfile profile = madeUpProfile();
  profile.kernels[0].classes["fused_entry"] = {{100, 2e-7}, {1000000, 2e-3}};
  StepTime time = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(time.classSeconds["elementwise"], 4e-6, 1e-15);
  EXPECT_NEAR(time.classSeconds["fused_entry"], 600 * 2e-9, 1e-15);
  EXPECT_NEAR(time.computeSeconds, 4e-6 + 1.2e-6, 1e-15);
  // A profile from before the class times each entry as an element-wise op
  // of its own, as the unfused step was timed.
  MachineProfile older = madeUpProfile();
  older.kernels[0].classes.erase("fused_entry");
  time = predictStepTime(step, CostReport(), older);
  EXPECT_NEAR(time.classSeconds["fused_entry"], 600 * 1e-8, 1e-15);
}

// A fused op with merged outputs (two results of one body) and one on
// bf16 values, 100 elements each.
constexpr const char *kMergedAndNarrowBodies = R"mlir(
!v = !tessel.tensor<[n:100], f32>
!b = !tessel.tensor<[n:100], bf16>
func.func @train_step(%x: !v, %y: !v, %p: !b, %q: !b) -> (!v, !v, !b) {
  %m:2 = tessel.fused %x, %y : (!v, !v) -> (!v, !v) {
  ^bb0(%a: !v, %c: !v):
    %s = tessel.add %a, %c : !v, !v -> !v
    %t = tessel.mul %s, %c : !v, !v -> !v
    %u = tessel.sub %t, %a : !v, !v -> !v
    tessel.yield %t, %u : !v, !v
  }
  %n = tessel.fused %p, %q : (!b, !b) -> !b {
  ^bb0(%a: !b, %c: !b):
    %s = tessel.add %a, %c : !b, !b -> !b
    %t = tessel.mul %s, %c : !b, !b -> !b
    tessel.yield %t : !b
  }
  return %m#0, %m#1, %n : !v, !v, !b
}
)mlir";

TEST_F(StepTimeTest, EntriesRunOncePerElementInTheirOwnType) {
  func::FuncOp step = parse(kMergedAndNarrowBodies);
  // f32 entries at 2e-9 s an element and entry, bf16 ones at 5e-9.
  MachineProfile profile = madeUpProfile();
  profile.kernels[0].classes["fused_entry"] = {{100, 2e-7}, {1000000, 2e-3}};
  profile.kernels[0].narrowClasses["bf16"]["fused_entry"] = {{100, 5e-7},
                                                             {1000000, 5e-3}};
  // The merged op's two further entries are computed once for both of
  // its results (its pass writes both: 200 elements); the bf16 op's one
  // at the bf16 rate.
  StepTime time = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(time.classSeconds["fused_entry"], 200 * 2e-9 + 100 * 5e-9, 1e-15);
  EXPECT_NEAR(time.classSeconds["elementwise"], 300 * 1e-8, 1e-15);
  // Without fused_entry, each entry is timed as an element-wise op in its
  // own type: bf16's element-wise points where the profile has them.
  profile.kernels[0].classes.erase("fused_entry");
  profile.kernels[0].narrowClasses["bf16"].erase("fused_entry");
  profile.kernels[0].narrowClasses["bf16"]["elementwise"] = {{100, 3e-6},
                                                             {1000000, 3e-2}};
  time = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(time.classSeconds["fused_entry"], 200 * 1e-8 + 100 * 3e-8, 1e-15);
}

TEST_F(StepTimeTest, AProfileWithoutTheClassTimesThemAsElementwise) {
  func::FuncOp step = parse(kStep);
  MachineProfile older = madeUpProfile();
  older.kernels[0].classes.erase("transcendental");
  StepTime time = predictStepTime(step, CostReport(), older);
  // Every op at the element-wise rate; the exp-and-tanh fused op still
  // counts its two functions, the erf fused op its mul.
  EXPECT_NEAR(time.classSeconds["transcendental"], 1e-6 + 1e-6 + 2e-6, 1e-15);
  EXPECT_NEAR(time.computeSeconds, 7e-6, 1e-15);
}

TEST_F(StepTimeTest, EachOpTheProgramRunsCostsThePerOpTime) {
  func::FuncOp step = parse(kStep);
  MachineProfile profile = madeUpProfile();
  profile.kernels[0].perOpSeconds = 1e-6;
  // Five ops (the add, the gelu and three fused ops, each one call
  // whatever its body holds): 5 us beside the 43 us of kernels.
  EXPECT_EQ(runtimeOpCount(step), 5);
  StepTime time = predictStepTime(step, CostReport(), profile);
  EXPECT_EQ(time.runtimeOps, 5);
  EXPECT_NEAR(time.runtimeOpSeconds, 5e-6, 1e-15);
  EXPECT_NEAR(time.computeSeconds, 4.8e-5, 1e-15);
  EXPECT_NEAR(time.totalSeconds(), 4.8e-5, 1e-15);
}

// Max pooling of 2 x 2 windows and its gradient over [n:4, h:10, w:10]:
// 400 input elements each, as CostReport counts their work.
constexpr const char *kPooling = R"mlir(
!x = !tessel.tensor<[n:4, h:10, w:10], f32>
!y = !tessel.tensor<[n:4, h:5, w:5], f32>
func.func @train_step(%x: !x, %dy: !y) -> (!y, !x) {
  %y = tessel.pool max %x {spatial = ["h", "w"], strides = array<i64: 2, 2>,
                          window = array<i64: 2, 2>} : !x -> !y
  %dx = tessel.pool_backward max %x, %dy {spatial = ["h", "w"],
      strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : !x, !y -> !x
  return %y, %dx : !y, !x
}
)mlir";

TEST_F(StepTimeTest, PoolingAndItsGradientHaveClassesOfTheirOwn) {
  func::FuncOp step = parse(kPooling);
  std::vector<std::string> classes;
  for (Operation &op : step.getBody().front().without_terminator())
    classes.push_back(kernelClassOf(&op));
  EXPECT_EQ(classes,
            (std::vector<std::string>{"pooling", "pooling_backward"}));
  // A profile that timed them: 1e-7 and 1e-6 s an element.
  MachineProfile profile = madeUpProfile();
  profile.kernels[0].classes["pooling"] = {{100, 1e-5}, {1000000, 1e-1}};
  profile.kernels[0].classes["pooling_backward"] = {{100, 1e-4},
                                                    {1000000, 1}};
  StepTime time = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(time.classSeconds["pooling"], 4e-5, 1e-15);
  EXPECT_NEAR(time.classSeconds["pooling_backward"], 4e-4, 1e-14);
  // A profile from before these classes times both as reductions (1e-8 s
  // an element in the made-up profile).
  time = predictStepTime(step, CostReport(), madeUpProfile());
  EXPECT_NEAR(time.computeSeconds, 8e-6, 1e-15);
}

// A data-parallel tail on 2 ranks: a gradient's all_reduce, two adds that
// do not need it, the update that does, then a collective_permute (which
// blocks) and an add after it.
constexpr const char *kOverlapStep = R"mlir(
!v = !tessel.tensor<[n:100], f32>
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @train_step(%g: !v, %x: !v) -> (!v, !v) {
    %s = tessel.all_reduce sum %g over ["data"] : !v
    %a = tessel.add %x, %x : !v, !v -> !v
    %b = tessel.add %a, %x : !v, !v -> !v
    %u = tessel.add %s, %b : !v, !v -> !v
    %p = tessel.collective_permute %u over ["data"] pairs [0, 1, 1, 0] : !v
    %c = tessel.add %a, %x : !v, !v -> !v
    return %p, %c : !v, !v
  }
}
)mlir";

/// kOverlapStep with its tensors of `elements` elements instead of 100.
std::string overlapStepOf(int64_t elements) {
  std::string source = kOverlapStep;
  for (size_t at = source.find("n:100"); at != std::string::npos;
       at = source.find("n:100", at))
    source.replace(at, 5, "n:" + std::to_string(elements));
  return source;
}

TEST_F(StepTimeTest, AStartedCollectiveHidesBehindTheOpsBeforeItsFirstUser) {
  func::FuncOp step = parse(kOverlapStep);
  llvm::DenseMap<Operation *, double> kernelSeconds;
  for (Operation &op : step.getBody().front())
    if (isa<AddOp>(op))
      kernelSeconds[&op] = 10e-6;
  auto thirtyMicroseconds = [](Operation *, const CollectiveCost &) {
    return 30e-6;
  };
  // Serially 4 adds (40 us) and 2 collectives (60 us). The all_reduce moves
  // from 0 to 30 us while the first two adds run (0 to 20 us); the update
  // waits for it (30 us) and ends at 40; the permute blocks from 40 to 70;
  // the last add ends at 80: 20 us hidden.
  EXPECT_NEAR(hiddenCommunicationSeconds(step, kernelSeconds, 0,
                                         thirtyMicroseconds),
              20e-6, 1e-12);
  // Each op's own cost (here 5 us) also covers the all_reduce, up to its
  // 30 us: the adds before the update now take 30 us.
  EXPECT_NEAR(hiddenCommunicationSeconds(step, kernelSeconds, 5e-6,
                                         thirtyMicroseconds),
              30e-6, 1e-12);
  // An all_reduce that takes 5 us is hidden whole; the blocking permute's
  // never is.
  auto fiveMicroseconds = [](Operation *, const CollectiveCost &) {
    return 5e-6;
  };
  EXPECT_NEAR(
      hiddenCommunicationSeconds(step, kernelSeconds, 0, fiveMicroseconds),
      5e-6, 1e-12);
}

TEST_F(StepTimeTest, ASumTheRuntimeRunsAtItsStartHidesNothing) {
  // The overlap step's gradient all_reduce of one element on 2 ranks: the
  // runtime runs it blocking at its start (fewer elements than the largest
  // power of two within the group), so the adds after it hide none of it;
  // of 2 elements it is started and hides behind them as before.
  // What a step hides with 10 us adds and 30 us collectives.
  auto hiddenIn = [&](const std::string &source) {
    func::FuncOp step = parse(source.c_str());
    llvm::DenseMap<Operation *, double> kernelSeconds;
    for (Operation &op : step.getBody().front().without_terminator())
      if (isa<AddOp>(op))
        kernelSeconds[&op] = 10e-6;
    auto thirtyMicroseconds = [](Operation *, const CollectiveCost &) {
      return 30e-6;
    };
    return hiddenCommunicationSeconds(step, kernelSeconds, 0,
                                      thirtyMicroseconds);
  };
  auto hiddenOf = [&](int64_t elements) {
    return hiddenIn(overlapStepOf(elements));
  };
  EXPECT_NEAR(hiddenOf(1), 0, 1e-12);
  EXPECT_NEAR(hiddenOf(2), 20e-6, 1e-12);

  // Over both axes of a 2 x 3 mesh, a group of 6 whose largest power of
  // two is 4: 3 elements run at the start, 4 are started (and hide behind
  // the add after them).
  auto hiddenOver6 = [&](int64_t elements) {
    std::string source = llvm::formatv(R"mlir(
!v = !tessel.tensor<[n:{0}], f32>
module attributes {{tessel.mesh = #tessel.mesh<[a:2, b:3]>} {{
  func.func @train_step(%g: !v, %x: !v) -> (!v, !v) {{
    %s = tessel.all_reduce sum %g over ["a", "b"] : !v
    %a = tessel.add %x, %x : !v, !v -> !v
    return %s, %a : !v, !v
  }
}
)mlir",
                                       elements)
                             .str();
    return hiddenIn(source);
  };
  EXPECT_NEAR(hiddenOver6(3), 0, 1e-12);
  EXPECT_NEAR(hiddenOver6(4), 10e-6, 1e-12);
  EXPECT_NEAR(hiddenOver6(5), 10e-6, 1e-12);
}

TEST_F(StepTimeTest, TheStepIsComputeAndCommunicationLessWhatIsHidden) {
  func::FuncOp step = parse(kOverlapStep);
  MachineProfile profile = madeUpProfile();
  // Two ranks on two cores: each rank's kernels at the profile's rates.
  profile.cores = 2;
  for (const char *kind : {"all_reduce", "halo_exchange"})
    addThirtyMicrosecondCollective(profile, kind);
  CostReport report = buildCostReport(step);
  addPartitionedCosts(report, step);
  ASSERT_EQ(report.collectives.size(), 2u);
  StepTime overlapped = predictStepTime(step, report, profile);
  // Four adds of 100 elements at 1e-8 s, and two 30 us collectives.
  EXPECT_NEAR(overlapped.computeSeconds, 4e-6, 1e-12);
  EXPECT_NEAR(overlapped.commSeconds, 60e-6, 1e-12);
  // The adds before the update (2 us) are all that runs beside the
  // all_reduce.
  EXPECT_NEAR(overlapped.hiddenSeconds, 2e-6, 1e-12);
  EXPECT_NEAR(overlapped.totalSeconds(), 62e-6, 1e-12);
  StepTime blocking = predictStepTime(step, report, profile,
                                      /*overlapCommunication=*/false);
  EXPECT_EQ(blocking.hiddenSeconds, 0);
  EXPECT_NEAR(blocking.totalSeconds(), 64e-6, 1e-12);
  // A machine whose transfers hide half of what the timeline allows (the
  // profile's overlap_fraction), and one over shared memory, none.
  profile.overlapFraction = 0.5;
  EXPECT_NEAR(predictStepTime(step, report, profile).hiddenSeconds, 1e-6,
              1e-12);
  profile.overlapFraction = 0.0;
  EXPECT_EQ(predictStepTime(step, report, profile).hiddenSeconds, 0);
  profile.overlapFraction.reset();
  // On one core the two ranks share it: nothing is hidden.
  profile.cores = 1;
  EXPECT_EQ(predictStepTime(step, report, profile).hiddenSeconds, 0);
}

TEST_F(StepTimeTest, AStartedCollectiveIsTimedAsStarted) {
  func::FuncOp step = parse(kOverlapStep);
  MachineProfile profile = madeUpProfile();
  profile.cores = 2;
  for (const char *kind : {"all_reduce", "halo_exchange"})
    addThirtyMicrosecondCollective(profile, kind);
  // The all_reduce takes 1 us blocking and 50 us started.
  profile.collectives[0].alphaSeconds = 1e-6;
  CollectiveFit started = profile.collectives[0];
  started.started = true;
  started.alphaSeconds = 50e-6;
  profile.collectives.push_back(started);
  CostReport report = buildCostReport(step);
  addPartitionedCosts(report, step);
  // The lowering starts the all_reduce (the permute blocks): 50 + 30 us.
  StepTime overlapped = predictStepTime(step, report, profile);
  EXPECT_NEAR(overlapped.commSeconds, 80e-6, 1e-12);
  // The update waits 50 us for it after 2 us of adds: 2 us hidden (1 us,
  // had the timeline taken the blocking call's time).
  EXPECT_NEAR(overlapped.hiddenSeconds, 2e-6, 1e-12);
  // Compiled --no-overlap, every collective blocks: 1 + 30 us.
  EXPECT_NEAR(predictStepTime(step, report, profile,
                              /*overlapCommunication=*/false)
                  .commSeconds,
              31e-6, 1e-12);
  // A sum of one element the runtime runs at its start: the blocking call.
  func::FuncOp tiny = parse(overlapStepOf(1).c_str());
  CostReport tinyReport = buildCostReport(tiny);
  addPartitionedCosts(tinyReport, tiny);
  EXPECT_NEAR(predictStepTime(tiny, tinyReport, profile).commSeconds, 31e-6,
              1e-12);
}

// A gradient's all_reduce over 2 ranks in f32, bf16 and f16 (formatv's
// "{{" is a brace).
constexpr const char *kReductionStep = R"mlir(
!v = !tessel.tensor<[n:100], {0}>
module attributes {{tessel.mesh = #tessel.mesh<[data:2]>} {{
  func.func @train_step(%g: !v) -> !v {{
    %s = tessel.all_reduce sum %g over ["data"] : !v
    return %s : !v
  }
}
)mlir";

TEST_F(StepTimeTest, A16BitReductionAlsoWidensAndNarrowsItsElements) {
  MachineProfile profile = madeUpProfile();
  profile.cores = 2;
  addThirtyMicrosecondCollective(profile, "all_reduce");
  for (const char *type : {"f32", "bf16", "f16"}) {
    func::FuncOp step =
        parse(llvm::formatv(kReductionStep, type).str().c_str());
    CostReport report = buildCostReport(step);
    addPartitionedCosts(report, step);
    ASSERT_EQ(report.collectives.size(), 1u);
    bool narrow = std::string(type) != "f32";
    // Its 100 elements, sent as f32 either way (2 x 1/2 x 400 bytes).
    EXPECT_EQ(report.collectives[0].widenedElements, narrow ? 100 : 0);
    EXPECT_EQ(report.collectives[0].bytesPerRank, 400);
    // The collective's 30 us, and for bf16 and f16 an element-wise op of
    // 100 elements (1 us) for the conversions.
    EXPECT_NEAR(predictStepTime(step, report, profile).commSeconds,
                narrow ? 31e-6 : 30e-6, 1e-12)
        << type;
  }
}

// Four adds of 1000 f32 (4000 bytes an operand or result), the last
// reading %x again after 16000 distinct bytes (%y, %a, %b, %c) and 24000
// bytes of reads and writes went through the caches.
constexpr const char *kReuse = R"mlir(
!v = !tessel.tensor<[n:1000], f32>
func.func @train_step(%x: !v, %y: !v) -> !v {
  %a = tessel.add %x, %y : !v, !v -> !v
  %b = tessel.add %a, %a : !v, !v -> !v
  %c = tessel.add %b, %b : !v, !v -> !v
  %d = tessel.add %c, %x : !v, !v -> !v
  return %d : !v
}
)mlir";

/// coldByteFractions of each op of `step` but the terminator, in order.
std::vector<double> coldFractionsOf(func::FuncOp step, int64_t share) {
  llvm::DenseMap<Operation *, double> cold =
      coldByteFractions(step, ::tessel::layout::Mesh(), share);
  std::vector<double> result;
  for (Operation &op : step.getBody().front().without_terminator())
    result.push_back(cold.lookup(&op));
  return result;
}

TEST_F(StepTimeTest,
       AnOperandIsColdWhenMoreThanTheCachesPassedSinceItsLastUse) {
  func::FuncOp step = parse(kReuse);
  // What the step reads first and every result's recycled buffer are
  // cold; %a read twice by one add counts once, and warm: the add before
  // wrote it. %x, 16000 distinct bytes back, is gone from a 15000-byte
  // share and still in a 20000-byte one.
  EXPECT_EQ(coldFractionsOf(step, 15000),
            (std::vector<double>{1, 0.5, 0.5, 2.0 / 3}));
  EXPECT_EQ(coldFractionsOf(step, 20000),
            (std::vector<double>{1, 0.5, 0.5, 1.0 / 3}));
}

TEST_F(StepTimeTest, AStartedCollectivesResultIsWrittenWhenItIsWaitedFor) {
  // kOverlapStep's all_reduce starts first and is waited for before %u,
  // which reads its result warm (400 bytes an operand or result, a
  // 1000-byte share); %c reads %a and %x after 2000 and 1600 bytes: cold.
  func::FuncOp step = parse(kOverlapStep);
  EXPECT_EQ(coldFractionsOf(step, 1000),
            (std::vector<double>{1, 1, 1.0 / 3, 1.0 / 3, 0.5, 1}));
  EXPECT_EQ(coldFractionsOf(step, 10000),
            (std::vector<double>{1, 1, 1.0 / 3, 1.0 / 3, 0.5, 1.0 / 3}));
}

TEST_F(StepTimeTest, AKernelRunsBetweenItsWarmAndColdTimesByItsColdBytes) {
  // Adds of 131072 f32, 1.5 MiB each (over kCachedOpBytes): warm 1e-8 s an
  // element, cold twice that; a 1 MiB cache, which the step outgrows.
  func::FuncOp step = parse(R"mlir(
!v = !tessel.tensor<[n:131072], f32>
func.func @train_step(%x: !v, %y: !v) -> !v {
  %a = tessel.add %x, %y : !v, !v -> !v
  %b = tessel.add %a, %a : !v, !v -> !v
  return %b : !v
}
)mlir");
  MachineProfile profile = madeUpProfile();
  for (auto &[opClass, points] : profile.kernels[0].classes)
    for (KernelPoint &point : points)
      point.coldSeconds = 2 * point.seconds;
  profile.cacheBytes = 1 << 20;
  CostReport report;
  report.numRanks = 1;
  StepTime time = predictStepTime(step, report, profile);
  double warm = 131072 * 1e-8;
  // %a all cold; %b reads %a warm (once) and writes a cold buffer: half.
  EXPECT_NEAR(time.classSeconds["elementwise"],
              2 * warm + (warm + (2 * warm - warm) / 2), 1e-12);
  // Without cold timings every kernel is warm.
  EXPECT_NEAR(predictStepTime(step, report, madeUpProfile())
                  .classSeconds["elementwise"],
              2 * warm, 1e-12);
}

TEST_F(StepTimeTest, AConvolutionsVectorizedChannelCountsInWholeBlocks) {
  // The CNN's first convolution with 2 output channels, and its
  // gradients: forward and the filter's gradient vectorize the output
  // channel (2 of a block of 16: 8 times the FLOPs), the input's gradient
  // the input channel (8 of 16: twice).
  func::FuncOp step = parse(R"mlir(
!x = !tessel.tensor<[b:4, c:8, h:6, w:6], f32>
!k = !tessel.tensor<[c:8, f:2, kh:3, kw:3], f32>
!y = !tessel.tensor<[b:4, f:2, h:6, w:6], f32>
func.func @train_step(%x: !x, %k: !k, %dy: !y) -> (!y, !x, !k) {
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
      spatial = ["h", "w"], kernel = ["kh", "kw"],
      padding = array<i64: 1, 1, 1, 1>} : !x, !k -> !y
  %dx = tessel.conv2d_backward_input %dy, %k {input_channel = "c",
      output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"],
      padding = array<i64: 1, 1, 1, 1>} : !y, !k -> !x
  %dk = tessel.conv2d_backward_filter %x, %dy {input_channel = "c",
      output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"],
      padding = array<i64: 1, 1, 1, 1>} : !x, !y -> !k
  return %y, %dx, %dk : !y, !x, !k
}
)mlir");
  // 2 x 144 output positions x 2 channels x 8 x 9: 41472 FLOPs each.
  int64_t flops = 2 * 144 * 2 * 8 * 9;
  std::vector<int64_t> work;
  for (Operation &op : step.getBody().front().without_terminator())
    work.push_back(
        vectorizedConvolutionWork(&op, flops, ::tessel::layout::Mesh()));
  EXPECT_EQ(work, (std::vector<int64_t>{8 * flops, 2 * flops, 8 * flops}));
  // Other ops keep their FLOPs.
  EXPECT_EQ(vectorizedConvolutionWork(step->getParentOp(), 7,
                                      ::tessel::layout::Mesh()),
            7);
}

TEST_F(StepTimeTest, AChannelSplitConvolutionIsTimedByItsLocalBlocks) {
  // 8 output channels over model:4 leave each rank 2, computed as 16: the
  // step times 8 times the rank's FLOPs (1e-8 s a unit of work in the
  // made-up profile).
  func::FuncOp step = parse(R"mlir(
!x = !tessel.tensor<[b:4, c:8, h:6, w:6], f32>
!k = !tessel.tensor<[c:8, f:8, kh:3, kw:3], f32, #tessel.layout<{f = [model]}>>
!y = !tessel.tensor<[b:4, f:8, h:6, w:6], f32, #tessel.layout<{f = [model]}>>
module attributes {tessel.mesh = #tessel.mesh<[model:4]>} {
  func.func @train_step(%x: !x, %k: !k) -> !y {
    %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
        spatial = ["h", "w"], kernel = ["kh", "kw"],
        padding = array<i64: 1, 1, 1, 1>} : !x, !k -> !y
    return %y : !y
  }
}
)mlir");
  auto flops = flopsPerOp(step);
  ASSERT_EQ(flops.size(), 1u);
  int64_t local = 2 * 144 * 2 * 8 * 9;
  EXPECT_EQ(flops.front().second, local);
  StepTime time = predictStepTime(step, CostReport(), madeUpProfile());
  EXPECT_NEAR(time.classSeconds["convolution"], 8 * local * 1e-8, 1e-12);
}

TEST_F(StepTimeTest, ABf16FilterGradientWidenedIsTimedAtTheF32Rate) {
  // A bf16 convolution and its filter gradient, 16 channels in and out (one
  // block, so the work is the FLOPs), on a profile whose bf16 convolutions
  // take a tenth of the f32 time (1e-9 against 1e-8 s a unit of work).
  func::FuncOp step = parse(R"mlir(
!x = !tessel.tensor<[b:1, c:16, h:4, w:4], bf16>
!k = !tessel.tensor<[c:16, f:16, kh:1, kw:1], bf16>
!y = !tessel.tensor<[b:1, f:16, h:4, w:4], bf16>
func.func @train_step(%x: !x, %k: !k, %dy: !y) -> (!y, !k) {
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
      spatial = ["h", "w"], kernel = ["kh", "kw"]} : !x, !k -> !y
  %dk = tessel.conv2d_backward_filter %x, %dy {input_channel = "c",
      output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !y -> !k
  return %y, %dk : !y, !k
}
)mlir");
  int64_t flops = 2 * 16 * 16 * 16; // 8192 each
  MachineProfile profile = madeUpProfile();
  profile.kernels[0].narrowClasses["bf16"]["convolution"] = {{100, 1e-7},
                                                             {1000000, 1e-3}};
  // Both on the bf16 kernels: a tenth of the f32 time each.
  profile.bf16Products = Bf16Products::Native;
  profile.bf16FilterGradients = Bf16Products::Native;
  StepTime native = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(native.classSeconds["convolution"], 2 * flops * 1e-9, 1e-15);
  // The filter gradient widened (AMD's AVX512-BF16): the f32 kernel's
  // 8192e-8 s, and its 256 + 256 + 256 elements converted, each at half an
  // element-wise op's 1e-8 s.
  profile.bf16FilterGradients = Bf16Products::Widened;
  StepTime widened = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(widened.classSeconds["convolution"],
              flops * 1e-9 + flops * 1e-8 + 384 * 1e-8, 1e-15);
  // Every product widened (Intel's without AMX): the profile's bf16
  // points timed them so, conversions and all.
  profile.bf16Products = Bf16Products::Widened;
  StepTime allWidened = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(allWidened.classSeconds["convolution"], 2 * flops * 1e-9, 1e-15);
}

TEST_F(StepTimeTest, AThinProductRunsNoFasterThanTheThinMatmuls) {
  // A batch of 64 against 1024 x 256 weights (thinnest side 64, work
  // 2 x 64 x 1024 x 256), the same product with the batch split over
  // model:2 (32 rows a rank), and a batched product (b in all three
  // tensors), which the thin points do not time (the made-up profile's
  // batched ones run at the square rate).
  func::FuncOp step = parse(R"mlir(
!x = !tessel.tensor<[batch:64, k:1024], f32, #tessel.layout<{batch = [model]}>>
!w = !tessel.tensor<[k:1024, n:256], f32>
!y = !tessel.tensor<[batch:64, n:256], f32, #tessel.layout<{batch = [model]}>>
!bx = !tessel.tensor<[b:4, m:64, k:64], f32>
!bw = !tessel.tensor<[b:4, k:64, n:64], f32>
!by = !tessel.tensor<[b:4, m:64, n:64], f32>
module attributes {tessel.mesh = #tessel.mesh<[model:2]>} {
  func.func @train_step(%x: !x, %w: !w, %bx: !bx, %bw: !bw) -> (!y, !by) {
    %y = tessel.einsum %x, %w : (!x, !w) -> !y
    %by = tessel.einsum %bx, %bw : (!bx, !bw) -> !by
    return %y, %by : !y, !by
  }
}
)mlir");
  auto ops = step.getBody().front().without_terminator();
  auto op = ops.begin();
  ::tessel::layout::Mesh mesh = toLayoutMesh(getEnclosingMesh(step));
  EXPECT_EQ(thinnestMatmulExtent(&*op, mesh), 32);
  EXPECT_EQ(thinnestMatmulExtent(&*std::next(op), mesh), std::nullopt);
  int64_t thin = 2 * 32 * 1024 * 256, batched = 2 * 4 * 64 * 64 * 64;
  // Square matmuls at 1e-8 s a unit of work; thin ones with 32 rows at a
  // quarter of that rate (t x 512 x 512: work 2 x 32 x 512 x 512 in 4e-8
  // s a unit), with 512 rows at the square rate.
  MachineProfile profile = madeUpProfile();
  int64_t thinWork = 2 * 32 * kThinMatmulSide * kThinMatmulSide;
  int64_t squareWork = 2 * 512 * kThinMatmulSide * kThinMatmulSide;
  profile.kernels[0].classes["matmul_thin"] = {{thinWork, thinWork * 4e-8},
                                               {squareWork, squareWork * 1e-8}};
  StepTime time = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(time.classSeconds["matmul"], thin * 4e-8 + batched * 1e-8, 1e-12);
  // A profile without thin matmuls (calibrated before them) times every
  // product at the square rate, whatever its other classes.
  profile.kernels[0].classes.erase("matmul_thin");
  time = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(time.classSeconds["matmul"], (thin + batched) * 1e-8, 1e-12);
  // Nor do f32 thin points bound a bf16 product where the bf16 ones are
  // missing.
  profile.kernels[0].classes["matmul_thin"] = {{thinWork, thinWork * 4e-8},
                                               {squareWork, squareWork * 1e-8}};
  EXPECT_TRUE(profile.measuredClass("matmul_thin", 2, "f32"));
  EXPECT_FALSE(profile.measuredClass("matmul_thin", 2, "bf16"));
  profile.kernels[0].narrowClasses["bf16"]["matmul_thin"] = {
      {thinWork, thinWork * 2e-8}};
  EXPECT_TRUE(profile.measuredClass("matmul_thin", 2, "bf16"));
}

TEST_F(StepTimeTest, BatchedProductsRunAtTheirOwnRate) {
  // Attention's scores (b and h in all three tensors) with b split over
  // data:2, and a plain product.
  func::FuncOp step = parse(R"mlir(
!q = !tessel.tensor<[b:4, h:2, s:16, d:8], f32, #tessel.layout<{b = [data]}>>
!k = !tessel.tensor<[b:4, h:2, t:16, d:8], f32, #tessel.layout<{b = [data]}>>
!sc = !tessel.tensor<[b:4, h:2, s:16, t:16], f32, #tessel.layout<{b = [data]}>>
!a = !tessel.tensor<[m:16, k:8], f32>
!w = !tessel.tensor<[k:8, n:16], f32>
!c = !tessel.tensor<[m:16, n:16], f32>
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @train_step(%q: !q, %k: !k, %a: !a, %w: !w) -> (!sc, !c) {
    %sc = tessel.einsum %q, %k : (!q, !k) -> !sc
    %c = tessel.einsum %a, %w : (!a, !w) -> !c
    return %sc, %c : !sc, !c
  }
}
)mlir");
  std::vector<bool> batched;
  for (Operation &op : step.getBody().front().without_terminator())
    batched.push_back(isBatchedProduct(&op));
  EXPECT_EQ(batched, (std::vector<bool>{true, false}));
  // Batched products at 5e-8 s a unit of work, square ones at 1e-8: the
  // scores' 2 x 2 x 2 x 16 x 16 x 8 on a rank, the product's 2 x 16 x 8
  // x 16.
  int64_t scores = 2 * 2 * 2 * 16 * 16 * 8, plain = 2 * 16 * 8 * 16;
  MachineProfile profile = madeUpProfile();
  profile.kernels[0].classes["matmul_batched"] = {{100, 5e-6}, {1000000, 5e-2}};
  StepTime time = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(time.classSeconds["matmul"], scores * 5e-8 + plain * 1e-8, 1e-12);
  // A profile calibrated before them times both at the square rate.
  profile.kernels[0].classes.erase("matmul_batched");
  time = predictStepTime(step, CostReport(), profile);
  EXPECT_NEAR(time.classSeconds["matmul"], (scores + plain) * 1e-8, 1e-12);
}

TEST_F(StepTimeTest, AMatmulsThinnestSideIsItsRowsColumnsOrContraction) {
  // Thin in N (8 columns), in K (a contraction of 16, as a weight
  // gradient over a small batch), reduced dims (r, in one operand only)
  // left out, and no side under 512.
  func::FuncOp step = parse(R"mlir(
!a = !tessel.tensor<[m:600, k:700], f32>
!b = !tessel.tensor<[k:700, n:8], f32>
!c = !tessel.tensor<[m:600, n:8], f32>
!x = !tessel.tensor<[s:16, i:600, r:3], f32>
!g = !tessel.tensor<[s:16, o:700], f32>
!w = !tessel.tensor<[i:600, o:700], f32>
!p = !tessel.tensor<[m:600, k:700], f32>
!q = !tessel.tensor<[k:700, n:900], f32>
!pq = !tessel.tensor<[m:600, n:900], f32>
func.func @train_step(%a: !a, %b: !b, %x: !x, %g: !g, %p: !p, %q: !q)
    -> (!c, !w, !pq) {
  %c = tessel.einsum %a, %b : (!a, !b) -> !c
  %w = tessel.einsum %x, %g : (!x, !g) -> !w
  %pq = tessel.einsum %p, %q : (!p, !q) -> !pq
  return %c, %w, %pq : !c, !w, !pq
}
)mlir");
  std::vector<std::optional<int64_t>> thinnest;
  for (Operation &op : step.getBody().front().without_terminator())
    thinnest.push_back(thinnestMatmulExtent(&op, ::tessel::layout::Mesh()));
  EXPECT_EQ(thinnest, (std::vector<std::optional<int64_t>>{8, 16, 600}));
}

TEST_F(StepTimeTest, GroupedConvolutionsFillBlocksPerGroup) {
  // 32 output channels in 16 groups of 2 fill 16 blocks (256 computed,
  // 8 times the FLOPs); depthwise, 32 groups of 1, the blocks run across
  // the groups (32 computed: the FLOPs).
  auto workOf = [&](int64_t groups) {
    std::string source = llvm::formatv(R"mlir(
!x = !tessel.tensor<[b:1, c:32, h:4, w:4], f32>
!k = !tessel.tensor<[c:{0}, f:32, kh:1, kw:1], f32>
!y = !tessel.tensor<[b:1, f:32, h:4, w:4], f32>
func.func @train_step(%x: !x, %k: !k) -> !y {{
  %y = tessel.conv2d %x, %k {{input_channel = "c", output_channel = "f",
      spatial = ["h", "w"], kernel = ["kh", "kw"], groups = {1}}
      : !x, !k -> !y
  return %y : !y
}
)mlir",
                                       32 / groups, groups)
                             .str();
    func::FuncOp step = parse(source.c_str());
    Operation *conv = &step.getBody().front().front();
    return vectorizedConvolutionWork(conv, 32000, ::tessel::layout::Mesh());
  };
  EXPECT_EQ(workOf(16), 256000);
  EXPECT_EQ(workOf(32), 32000);
  EXPECT_EQ(workOf(1), 32000);
}

} // namespace
