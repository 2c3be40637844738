//===- StepTime.cpp - a layout's training step time, predicted ------------===//

#include "analysis/StepTime.h"

#include "analysis/RuntimeMemory.h"

#include "dialect/MeshConversion.h"
#include "dialect/SourceLocations.h"
#include "dialect/StartedCollectives.h"
#include "layouts/CheckedArithmetic.h"
#include "layouts/Sharding.h"

#include "llvm/ADT/TypeSwitch.h"

#include <algorithm>
#include <iterator>
#include <limits>

using namespace mlir;
using namespace mlir::tessel;

namespace tessel::analysis {

using ::tessel::saturatingAdd;
using ::tessel::saturatingMul;

bool isTranscendental(Operation *op) {
  return isa<ExpOp, LogOp, TanhOp, SigmoidOp, GeluOp, ErfOp, SinOp, CosOp,
             PowOp>(op);
}

int64_t transcendentalOpsPerElement(Operation *op) {
  if (isTranscendental(op))
    return 1;
  auto fused = dyn_cast<FusedOp>(op);
  if (!fused)
    return 0;
  int64_t count = 0;
  for (Operation &bodyOp : fused.getBody().front())
    if (isTranscendental(&bodyOp))
      ++count;
  return count;
}

std::string kernelClassOf(Operation *op) {
  // gelu, erf, exp and the like cost several times an add per element
  // (SLEEF's vector functions, glibc's powf); a fused op with any in its
  // body is timed by them.
  if (transcendentalOpsPerElement(op) > 0)
    return "transcendental";
  return llvm::TypeSwitch<Operation *, std::string>(op)
      .Case<AllReduceOp, AllGatherOp, ReduceScatterOp, AllToAllOp,
            HaloExchangeOp, CollectivePermuteOp>([](Operation *) { return ""; })
      .Case<EinsumOp>([](Operation *) { return "matmul"; })
      .Case<Conv2DOp, Conv2DBackwardInputOp, Conv2DBackwardFilterOp>(
          [](Operation *) { return "convolution"; })
      .Case<ReduceOp, ArgmaxOp, TopKOp, CumsumOp>(
          [](Operation *) { return "reduction"; })
      // Max pooling's gradient costs several times its forward pass per
      // element (the CNN's: 0.20 against 0.035 ms a step), and both more
      // than a sum: classes of their own.
      .Case<PoolOp>([](Operation *) { return "pooling"; })
      .Case<PoolBackwardOp>([](Operation *) { return "pooling_backward"; })
      .Case<SoftmaxOp, LogSoftmaxOp, SoftmaxCrossEntropyOp, LayerNormOp>(
          [](Operation *) { return "normalization"; })
      // Element-wise ops, and copies (reshape, transpose, slice, ...),
      // which move as many bytes as an element-wise op of their result.
      .Default([](Operation *) { return "elementwise"; });
}

std::string kernelElementTypeOf(Operation *op) {
  Type common;
  for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults())) {
    auto type = dyn_cast<NamedTensorType>(value.getType());
    if (!type || !isa<FloatType>(type.getElementType()))
      continue;
    if (common && common != type.getElementType())
      return "f32";
    common = type.getElementType();
  }
  if (common && common.isBF16())
    return "bf16";
  if (common && common.isF16())
    return "f16";
  return "f32";
}

std::optional<int64_t> thinnestMatmulExtent(Operation *op,
                                            const layout::Mesh &mesh) {
  auto einsum = dyn_cast<EinsumOp>(op);
  if (!einsum || einsum.getInputs().size() != 2)
    return std::nullopt;
  auto lhs = cast<NamedTensorType>(einsum.getInputs()[0].getType());
  auto rhs = cast<NamedTensorType>(einsum.getInputs()[1].getType());
  auto result = cast<NamedTensorType>(einsum.getResult().getType());
  int64_t m = 1, n = 1, k = 1;
  for (StringAttr dim : lhs.getDimNames()) {
    bool inRhs = rhs.hasDim(dim.getValue()),
         inResult = result.hasDim(dim.getValue());
    if (inRhs && inResult)
      return std::nullopt;
    int64_t size = localDimSize(mesh, lhs, dim.getValue());
    if (inResult)
      m = saturatingMul(m, size);
    else if (inRhs)
      k = saturatingMul(k, size);
  }
  for (StringAttr dim : rhs.getDimNames())
    if (result.hasDim(dim.getValue()) && !lhs.hasDim(dim.getValue()))
      n = saturatingMul(n, localDimSize(mesh, rhs, dim.getValue()));
  return std::min({m, n, k});
}

bool isBatchedProduct(Operation *op) {
  auto einsum = dyn_cast<EinsumOp>(op);
  if (!einsum || einsum.getInputs().size() != 2)
    return false;
  auto lhs = cast<NamedTensorType>(einsum.getInputs()[0].getType());
  auto rhs = cast<NamedTensorType>(einsum.getInputs()[1].getType());
  auto result = cast<NamedTensorType>(einsum.getResult().getType());
  return llvm::any_of(lhs.getDimNames(), [&](StringAttr dim) {
    return rhs.hasDim(dim.getValue()) && result.hasDim(dim.getValue());
  });
}

/// Whether the runtime starts `op` and waits for it later, when the
/// lowering starts it (a collective of StartedCollectives.h): all but an
/// all-reduce of fewer elements than the largest power of two within its
/// group, which runs blocking at its start (runtime/comm/Collectives.cpp,
/// startAllReduce).
static bool runsStarted(Operation *op, const layout::Mesh &mesh) {
  if (!isStartedCollective(op))
    return false;
  auto allReduce = dyn_cast<AllReduceOp>(op);
  if (!allReduce)
    return true;
  std::vector<std::string> axes;
  for (Attribute axis : allReduce.getAxes())
    axes.push_back(cast<StringAttr>(axis).str());
  int64_t group = mesh.groupSize(axes), powerOfTwo = 1;
  while (powerOfTwo * 2 <= group)
    powerOfTwo *= 2;
  auto type = cast<NamedTensorType>(allReduce.getInput().getType());
  return localElements(mesh, type) >= powerOfTwo;
}

double hiddenCommunicationSeconds(
    func::FuncOp func, const llvm::DenseMap<Operation *, double> &kernelSeconds,
    double perOpSeconds,
    llvm::function_ref<double(Operation *, const CollectiveCost &)>
        collectiveSeconds) {
  if (func.isExternal())
    return 0;
  layout::Mesh mesh = toLayoutMesh(getEnclosingMesh(func));
  llvm::DenseMap<Operation *, double> commSeconds;
  for (const auto &[op, collective] : collectivesPerOp(func))
    commSeconds[op] = collectiveSeconds(op, collective);
  // `clock` is when the rank's next op may run, `linkFree` when its last
  // collective is done; `serial` sums everything, as if nothing overlapped.
  double clock = 0, linkFree = 0, serial = 0;
  // When each started collective is done, and where the program waits.
  llvm::DenseMap<Operation *, double> arrives;
  Block &body = func.getBody().front();
  BufferLifetimes lifetimes = bufferLifetimes(body, /*startCollectives=*/true);
  for (Operation &op : body) {
    for (Operation *started : lifetimes.waitsBefore.lookup(&op))
      clock = std::max(clock, arrives.lookup(started));
    if (op.hasTrait<OpTrait::IsTerminator>())
      break;
    auto comm = commSeconds.find(&op);
    if (comm == commSeconds.end()) {
      double seconds = kernelSeconds.lookup(&op) + perOpSeconds;
      clock += seconds;
      serial += seconds;
      continue;
    }
    linkFree = std::max(clock, linkFree) + comm->second;
    serial += comm->second;
    if (runsStarted(&op, mesh))
      arrives[&op] = linkFree;
    else
      clock = linkFree;
  }
  return std::max(0.0, serial - clock);
}

/// An op that reads and writes at most this many bytes finds them in the
/// caches even in a step that outgrows them: about a core's level-2 cache,
/// which keeps what the ops just before it wrote.
constexpr int64_t kCachedOpBytes = int64_t(1) << 20;

namespace {

/// The bytes of distinct buffers touched since each buffer was last
/// touched (its LRU stack distance), over a sequence of touches: a Fenwick
/// tree over the touches holds each buffer's size at its latest touch.
class ReuseDistances {
public:
  explicit ReuseDistances(size_t touches)
      : sizes(touches + 1, 0),
        largestBytes(std::numeric_limits<int64_t>::max() /
                     static_cast<int64_t>(touches + 1)) {}

  /// Touches `buffer` (of `bytes`); returns the distinct bytes touched
  /// since its last touch, or nothing when this is its first.
  std::optional<int64_t> touch(Value buffer, int64_t bytes) {
    // A buffer counts at most largestBytes, so that the sums of all the
    // touches stay within int64_t (a dim of 2^51 made one buffer alone
    // near 2^63); any such size is far past every cache, which is all a
    // distance is compared with.
    bytes = std::min(bytes, largestBytes);
    size_t now = ++touched;
    std::optional<int64_t> distance;
    auto last = latest.find(buffer);
    if (last != latest.end()) {
      auto [when, size] = last->second;
      distance = sumTo(now - 1) - sumTo(when);
      add(when, -size);
    }
    add(now, bytes);
    latest[buffer] = {now, bytes};
    return distance;
  }

private:
  void add(size_t at, int64_t bytes) {
    for (; at < sizes.size(); at += at & (~at + 1))
      sizes[at] += bytes;
  }
  int64_t sumTo(size_t at) const {
    int64_t sum = 0;
    for (; at > 0; at -= at & (~at + 1))
      sum += sizes[at];
    return sum;
  }

  std::vector<int64_t> sizes;
  int64_t largestBytes;
  size_t touched = 0;
  llvm::DenseMap<Value, std::pair<size_t, int64_t>> latest;
};

} // namespace

llvm::DenseMap<Operation *, double> coldByteFractions(func::FuncOp func,
                                                      const layout::Mesh &mesh,
                                                      int64_t cacheShareBytes) {
  llvm::DenseMap<Operation *, double> fractions;
  if (func.isExternal())
    return fractions;
  Block &body = func.getBody().front();
  BufferLifetimes lifetimes = bufferLifetimes(body, /*startCollectives=*/true);
  // A rename that keeps its operand's buffer names that buffer again.
  llvm::DenseMap<Value, Value> renamed;
  auto bufferOf = [&](Value value) {
    Value buffer = renamed.lookup(value);
    return buffer ? buffer : value;
  };
  size_t touches = 0;
  for (Operation &op : body)
    touches += op.getNumOperands() + op.getNumResults();
  ReuseDistances distances(touches);
  for (Operation &op : body.without_terminator()) {
    // A started collective writes its result while the ops after its
    // start run, done when it is waited for.
    for (Operation *started : lifetimes.waitsBefore.lookup(&op))
      for (Value result : started->getResults())
        distances.touch(result, localBytes(mesh, result));
    if (lifetimes.reusesOperand.count(&op)) {
      for (Value result : op.getResults())
        renamed[result] = bufferOf(op.getOperand(0));
      continue;
    }
    int64_t bytes = 0, coldBytes = 0;
    llvm::SmallVector<Value, 4> read;
    for (Value operand : op.getOperands()) {
      Value buffer = bufferOf(operand);
      if (llvm::is_contained(read, buffer))
        continue;
      read.push_back(buffer);
      int64_t size = localBytes(mesh, operand);
      bytes = saturatingAdd(bytes, size);
      // What the step reads before writing it (parameters, optimizer
      // state, the batch) was last touched a step ago.
      std::optional<int64_t> distance = distances.touch(buffer, size);
      if (!distance || *distance > cacheShareBytes)
        coldBytes = saturatingAdd(coldBytes, size);
    }
    // A result's buffer comes from the runtime's cache of freed buffers,
    // last used long before.
    for (Value result : op.getResults()) {
      int64_t size = localBytes(mesh, result);
      bytes = saturatingAdd(bytes, size);
      coldBytes = saturatingAdd(coldBytes, size);
      if (!isStartedCollective(&op))
        distances.touch(result, size);
    }
    fractions[&op] = bytes > 0 ? double(coldBytes) / double(bytes) : 0;
  }
  return fractions;
}

int64_t vectorizedConvolutionWork(Operation *op, int64_t flops,
                                  const layout::Mesh &mesh) {
  auto blocked = [](int64_t channels) {
    return (channels + kConvolutionChannelBlock - 1) /
           kConvolutionChannelBlock * kConvolutionChannelBlock;
  };
  // `channel` of `type` is the one the kernel vectorizes, in `groups`
  // groups: each group's channels fill whole blocks, unless a group has
  // one (depthwise), where the blocks run across the groups.
  auto padded = [&](NamedTensorType type, StringRef channel, int64_t groups) {
    int64_t channels = localDimSize(mesh, type, channel);
    if (channels <= 0 || groups <= 0 || channels % groups != 0)
      return flops;
    int64_t perGroup = channels / groups;
    int64_t computed = perGroup > 1 ? saturatingMul(groups, blocked(perGroup))
                                    : blocked(channels);
    return saturatingMul(flops / channels, computed);
  };
  return llvm::TypeSwitch<Operation *, int64_t>(op)
      .Case([&](Conv2DOp conv) {
        return padded(conv.getType(), conv.getOutputChannel(),
                      conv.getGroups());
      })
      .Case([&](Conv2DBackwardInputOp conv) {
        return padded(conv.getType(), conv.getInputChannel(), conv.getGroups());
      })
      .Case([&](Conv2DBackwardFilterOp conv) {
        return padded(conv.getType(), conv.getOutputChannel(),
                      conv.getGroups());
      })
      .Default([&](Operation *) { return flops; });
}

int64_t furtherFusedEntries(FusedOp fused) {
  int64_t entries = 0;
  for (Operation &entry : fused.getBody().front().without_terminator())
    if (!isa<ConstantOp>(entry) && !isTranscendental(&entry))
      ++entries;
  if (transcendentalOpsPerElement(fused) > 0)
    return entries;
  return std::max<int64_t>(0, entries - 1);
}

StepTime predictStepTime(func::FuncOp lowered, const CostReport &report,
                         const MachineProfile &profile,
                         bool overlapCommunication) {
  StepTime step;
  // The program's own work per op: allocating the op's result, releasing
  // what it used last and reaching a call site the caches no longer hold,
  // for each op the compiled function runs.
  step.runtimeOps = runtimeOpCount(lowered);
  step.runtimeOpSeconds =
      double(step.runtimeOps) * profile.perOpSeconds(report.numRanks);
  step.computeSeconds += step.runtimeOpSeconds;
  layout::Mesh mesh = toLayoutMesh(getEnclosingMesh(lowered));
  llvm::DenseMap<Operation *, double> kernelSeconds;
  // Renames and reshapes that keep their operand's buffer copy nothing.
  BufferLifetimes lifetimes;
  if (!lowered.isExternal())
    lifetimes = bufferLifetimes(lowered.getBody().front(),
                                /*startCollectives=*/true);
  // A kernel whose operands the caches no longer hold runs at the
  // profile's cold rate (timed right after 64 MiB went through the
  // caches), one whose operands the op before it wrote at the warm rate;
  // a kernel that reads and writes more than kCachedOpBytes, some of them
  // out of the caches, at a rate between the two in proportion (on one
  // machine, the ranks share its caches). Timed cold, the GPT's attention
  // einsums at a batch of 32 took 0.79 and 1.17 ms against 0.40 and 0.69
  // warm and 1.04 and 1.26 in the step; an add of 1 Mi elements 0.49
  // against 0.14 ms (docs/search-measurements.md, "Kernels out of the
  // caches").
  llvm::DenseMap<Operation *, double> coldFractions;
  if (profile.hasColdKernels() && !lowered.isExternal()) {
    int64_t share = profile.cacheBytes / std::max<int64_t>(1, report.numRanks);
    if (runtimeMemory(lowered, nullptr, profile.bf16Kernels()).heldBytes >
        share)
      coldFractions = coldByteFractions(lowered, mesh, share);
  }
  // The call sites, kernels in program order, then collectives.
  std::vector<SiteTime> sites;
  auto addToSite = [&](Operation *op, double seconds) {
    sites.push_back({op->getName().getStringRef().str(),
                     describeLocation(op->getLoc()), seconds});
  };
  for (auto [op, flops] : flopsPerOp(lowered)) {
    std::string opClass = kernelClassOf(op);
    if (opClass.empty() || lifetimes.reusesOperand.count(op))
      continue;
    // Ops without arithmetic are timed by the elements they write; a fused
    // op that ends in a sum by the elements it sums.
    int64_t work = flops;
    SmallVector<Value> written(op->getResults());
    if (auto fused = dyn_cast<FusedOp>(op))
      if (ReduceOp sum = getFusedSum(fused))
        written = {sum.getInput()};
    if (opClass == "convolution")
      work = vectorizedConvolutionWork(op, work, mesh);
    if (work == 0)
      for (Value result : written)
        if (auto type = dyn_cast<NamedTensorType>(result.getType()))
          work = saturatingAdd(work, localElements(mesh, type));
    // A fused op computes each of its body's transcendental functions once
    // per element, timed by their class; one without any is timed as one
    // element-wise op of its result, the pass over its operands and result
    // (the rest of its body: below).
    if (isa<FusedOp>(op) && opClass == "transcendental")
      work = saturatingMul(work, transcendentalOpsPerElement(op));
    int64_t touched = 0;
    for (Value value : llvm::concat<Value>(op->getOperands(), op->getResults()))
      touched = saturatingAdd(touched, localBytes(mesh, value));
    std::string elementType = kernelElementTypeOf(op);
    // A bf16 filter gradient that runs on the f32 kernel where the other
    // products, which the profile's bf16 convolutions timed, run on bf16
    // ones: the f32 kernel, and its tensors' conversions, each moving half
    // the bytes of an f32 add's element (2 + 4 against 4 + 4 + 4).
    int64_t convertedElements = 0;
    if (elementType == "bf16" && isa<Conv2DBackwardFilterOp>(op) &&
        profile.bf16FilterGradients == Bf16Products::Widened &&
        profile.bf16Products == Bf16Products::Native) {
      elementType = "f32";
      for (Value value :
           llvm::concat<Value>(op->getOperands(), op->getResults()))
        if (auto type = dyn_cast<NamedTensorType>(value.getType()))
          convertedElements =
              saturatingAdd(convertedElements, localElements(mesh, type));
    }
    // A batched product (attention's scores and their use, per example and
    // head) runs as many small ones: at the profile's batched products'
    // rate where it measured them (the realistic Transformer's on 2 ranks
    // took 0.38 to 0.50 ms a step a site, 0.22 to 0.24 at the square
    // rate of their work). Its seconds still count as the matmul class's.
    std::string timedClass = opClass;
    if (opClass == "matmul" && isBatchedProduct(op) &&
        profile.measuredClass("matmul_batched", report.numRanks, elementType))
      timedClass = "matmul_batched";
    double seconds = profile.kernelSeconds(timedClass, work, report.numRanks,
                                           /*cold=*/false, elementType);
    double cold = coldFractions.lookup(op);
    if (cold > 0 && touched > kCachedOpBytes)
      seconds +=
          cold * (profile.kernelSeconds(timedClass, work, report.numRanks,
                                        /*cold=*/true, elementType) -
                  seconds);
    if (convertedElements > 0)
      seconds += profile.kernelSeconds("elementwise", convertedElements / 2,
                                       report.numRanks);
    // A product with a thin side (a small batch against a layer's weights)
    // runs below the square matmuls' rate: no faster than the profile's
    // thin matmuls with that side, t x 512 by 512 x 512, run (the MLP's
    // batch of 64 against 784 x 128 weights took 71 us, 51 at the square
    // rate of its work). Only where the job size and type it is timed on
    // measured thin matmuls: the square points at a thin matmul's work
    // would slow it for nothing.
    if (opClass == "matmul" &&
        profile.measuredClass("matmul_thin", report.numRanks, elementType)) {
      std::optional<int64_t> thin = thinnestMatmulExtent(op, mesh);
      if (thin && *thin > 0 && *thin < kThinMatmulSide) {
        int64_t thinWork =
            saturatingMul(2 * *thin, kThinMatmulSide * kThinMatmulSide);
        double thinSeconds =
            profile.kernelSeconds("matmul_thin", thinWork, report.numRanks,
                                  /*cold=*/false, elementType);
        seconds =
            std::max(seconds, thinSeconds * double(work) / double(thinWork));
      }
    }
    kernelSeconds[op] = seconds;
    step.classSeconds[opClass] += seconds;
    step.computeSeconds += seconds;
    // The body's other entries, each computed on a tile the fused kernel
    // holds in the caches: the profile's fused_entry rate (without it,
    // each as an element-wise op of its own, as the unfused step was
    // timed). The realistic Transformer's 422 fused calls a step on 2
    // ranks took 17.5 ms; as element-wise ops, unfused, they were
    // predicted at 32.2 ms, as a pass each at 13.4.
    // A body computes each entry once per element of the value it walks
    // (the sum's input, or its result; a fused op with merged outputs
    // writes several results of that shape from the same entries).
    if (auto fused = dyn_cast<FusedOp>(op)) {
      int64_t elements = 0;
      if (auto type = dyn_cast<NamedTensorType>(written.front().getType()))
        elements = localElements(mesh, type);
      if (int64_t entries = furtherFusedEntries(fused)) {
        double entrySeconds = profile.kernelSeconds(
            "fused_entry", saturatingMul(elements, entries), report.numRanks,
            /*cold=*/false, elementType);
        kernelSeconds[op] += entrySeconds;
        step.classSeconds["fused_entry"] += entrySeconds;
        step.computeSeconds += entrySeconds;
        seconds += entrySeconds;
      }
    }
    addToSite(op, seconds);
  }
  // `op`: the collective's op in `lowered`, or null where only the
  // report's counts are known (timed as blocking calls).
  auto collectiveSeconds = [&](Operation *op,
                               const CollectiveCost &collective) {
    int64_t group = 1;
    for (const std::string &axis : collective.axes)
      for (size_t i = 0; i < report.meshAxes.size(); ++i)
        if (report.meshAxes[i] == axis)
          group = saturatingMul(group, report.meshSizes[i]);
    // The lowering starts this collective and waits for it later: MPI's
    // non-blocking call, timed apart where the profile has it.
    bool started = op && overlapCommunication && runsStarted(op, mesh);
    double seconds = profile.collectiveSeconds(collective.kind, group,
                                               collective.bytesPerRank,
                                               report.numRanks, started);
    // A 16-bit reduction's widening before it and narrowing after move as
    // many bytes as one f32 element-wise op of its elements (2 + 4 and
    // 4 + 2 bytes an element; an add's 4 + 4 + 4).
    if (collective.widenedElements > 0)
      seconds += profile.kernelSeconds(
          "elementwise", collective.widenedElements, report.numRanks);
    return seconds;
  };
  if (lowered.isExternal()) {
    for (const CollectiveCost &collective : report.collectives)
      step.commSeconds += collectiveSeconds(nullptr, collective);
  } else {
    for (const auto &[op, collective] : collectivesPerOp(lowered)) {
      double seconds = collectiveSeconds(op, collective);
      step.commSeconds += seconds;
      addToSite(op, seconds);
    }
  }
  std::stable_sort(sites.begin(), sites.end(),
                   [](const SiteTime &a, const SiteTime &b) {
                     return a.seconds > b.seconds;
                   });
  step.sites = std::move(sites);
  // The per-op cost is spread over the ops that compute: the lowered
  // program's calls are those ops, fused. With more ranks than cores
  // nothing is hidden: a started collective moves only while its peers
  // run, and they share the rank's cores, so its time is spent by the
  // job all the same (4 ranks on 2 cores measured the same step times
  // with and without overlap, docs/benchmarks.md "Communication overlap").
  // Of that, the share the machine's transfers really run beside its
  // cores, as the profile measured it (over shared memory the ranks' own
  // cores copy the data: 0 on the built-in profile; docs/search.md,
  // "Overlap").
  if (overlapCommunication && report.numRanks <= profile.cores)
    step.hiddenSeconds =
        profile.overlapFraction.value_or(1.0) *
        std::min(step.commSeconds,
                 hiddenCommunicationSeconds(
                     lowered, kernelSeconds,
                     kernelSeconds.empty()
                         ? 0
                         : step.runtimeOpSeconds / double(kernelSeconds.size()),
                     collectiveSeconds));
  return step;
}

} // namespace tessel::analysis
