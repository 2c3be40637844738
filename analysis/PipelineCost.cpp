//===- PipelineCost.cpp - what a pipelined training step costs ------------===//

#include "analysis/PipelineCost.h"

#include "analysis/CostReport.h"
#include "analysis/RuntimeMemory.h"
#include "analysis/StepTime.h"
#include "dialect/MeshConversion.h"
#include "layouts/CheckedArithmetic.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"

#include <algorithm>
#include <map>

using namespace mlir;
using namespace mlir::tessel;

namespace tessel::analysis {
namespace {

using ::tessel::saturatingAdd;
using ::tessel::saturatingMul;
using ::tessel::saturatingSub;

std::string stageFunction(int64_t stage, StringRef kind) {
  return ("stage" + std::to_string(stage) + "_" + kind).str();
}

/// `stage{s}.input`: the prefix of what stage s receives from stage s-1.
std::string inputPrefix(int64_t stage) {
  return "stage" + std::to_string(stage) + ".input";
}

std::string residualPrefix(int64_t stage) {
  return "stage" + std::to_string(stage) + ".residual";
}

/// The bytes of a value of `type` on a rank: `type` is a per-rank type of a
/// partitioned function.
int64_t localBytes(Type type) {
  auto tensor = dyn_cast<NamedTensorType>(type);
  if (!tensor)
    return 0;
  Type element = tensor.getElementType();
  int64_t elementBytes =
      element.isInteger(1) ? 1 : (element.getIntOrFloatBitWidth() + 7) / 8;
  return saturatingMul(tensor.getNumElements(), elementBytes);
}

int64_t bufferBytes(Type type) {
  auto tensor = dyn_cast<NamedTensorType>(type);
  return tensor ? runtimeBufferBytes(tensor) : 0;
}

StringRef argumentName(func::FuncOp func, unsigned index) {
  auto name =
      func.getArgAttrOfType<StringAttr>(index, TesselDialect::kNameAttrName);
  return name ? name.getValue() : StringRef();
}

StringRef argumentRole(func::FuncOp func, unsigned index) {
  auto role = func.getArgAttrOfType<StringAttr>(index, kRoleAttrName);
  return role ? role.getValue() : StringRef();
}

StringRef resultName(func::FuncOp func, unsigned index) {
  auto name =
      func.getResultAttrOfType<StringAttr>(index, TesselDialect::kNameAttrName);
  return name ? name.getValue() : StringRef();
}

/// The elements of the whole tensor of argument `index`: its
/// tessel.global_type after partitioning.
int64_t globalElements(func::FuncOp func, unsigned index) {
  Type type = func.getArgumentTypes()[index];
  if (auto global =
          func.getArgAttrOfType<TypeAttr>(index, "tessel.global_type"))
    type = global.getValue();
  auto tensor = dyn_cast<NamedTensorType>(type);
  return tensor ? tensor.getNumElements() : 0;
}

/// The FLOPs on a rank of a partitioned function, as tessel explain counts
/// a function, the predicted seconds and the ops of its compiled form
/// (`fused`, the same function as compile lowers it), and its collectives
/// (calls and bytes a rank sends).
struct FunctionWork {
  int64_t flops = 0;
  double seconds = 0;
  int64_t runtimeOps = 0;
  int64_t collectives = 0;
  int64_t collectiveBytes = 0;
};

FunctionWork workOf(func::FuncOp partitioned, func::FuncOp fused,
                    const MachineProfile &profile) {
  CostReport report = buildCostReport(partitioned);
  addPartitionedCosts(report, partitioned);
  StepTime time = predictStepTime(fused, report, profile);
  return {report.flopsPerRank, time.totalSeconds(), time.runtimeOps,
          static_cast<int64_t>(report.collectives.size()),
          report.commBytesPerRank};
}

/// The seconds of sending `types` (one message each) to a neighbour: a
/// point-to-point message timed as the profile's collective permute over
/// two ranks.
double sendSeconds(ArrayRef<Type> types, const MachineProfile &profile,
                   int64_t ranks) {
  double seconds = 0;
  for (Type type : types)
    seconds += profile.collectiveSeconds("collective_permute", 2,
                                         localBytes(type), ranks);
  return seconds;
}

/// The elements of a value of `type` on a rank.
int64_t localElements(Type type) {
  auto tensor = dyn_cast<NamedTensorType>(type);
  return tensor ? tensor.getNumElements() : 0;
}

/// The seconds the driver spends on `types`, one micro-batch's message in
/// one direction: copying each tensor between its buffer and the message's
/// block (an element-wise kernel of its elements), and, for a message the
/// stage receives, its transfer.
double messageHandlingSeconds(ArrayRef<Type> types, bool received,
                              const MachineProfile &profile, int64_t ranks) {
  double seconds = received ? sendSeconds(types, profile, ranks) : 0;
  for (Type type : types)
    seconds += profile.kernelSeconds("elementwise", localElements(type), ranks);
  return seconds;
}

/// The bytes of buffers counted by size (size -> buffers).
int64_t bytesOfBuffers(const std::map<int64_t, int64_t> &bySize) {
  int64_t total = 0;
  for (const auto &[bytes, count] : bySize)
    total = saturatingAdd(total, saturatingMul(bytes, count));
  return total;
}

/// What the runtime allocates running one stage function beyond what the
/// stage's cost counts elsewhere: its buffers, as the cache holds them by
/// size, and the memory outside the cache (RuntimeMemory's constants,
/// kernel scratch, widened copies and collectives' temporaries, and the
/// data the driver stages).
struct FunctionWorking {
  std::map<int64_t, int64_t> buffersBySize;
  int64_t constantBytes = 0;
  int64_t widenedCopyBytes = 0;
  int64_t scratchBytes = 0;
  int64_t inFlightBytes = 0;
  int64_t stagingBytes = 0;
  int64_t callSites = 0;

  int64_t cachedBytes() const { return bytesOfBuffers(buffersBySize); }
  int64_t uncachedBytes() const {
    return saturatingAdd(
        saturatingAdd(constantBytes, widenedCopyBytes),
        saturatingAdd(saturatingAdd(scratchBytes, inFlightBytes),
                      stagingBytes));
  }
  int64_t totalBytes() const {
    return saturatingAdd(cachedBytes(), uncachedBytes());
  }
};

/// What the runtime allocates running `fused` beyond the buffer bytes of
/// its arguments and results that the stage's cost counts elsewhere
/// (parameters, state, sums, kept micro-batches): one buffer of each
/// counted one's size fewer (an argument is alive through the call; a
/// result made late may not be alive at its size's most, so this can
/// count a buffer too few). runtimeMemory stages every argument that is
/// not state in host memory, as the unpipelined driver fills its data
/// arguments; the pipelined driver stages only its `staged` ones (the
/// data) and hands the others (activations, residuals, cotangents, sums,
/// the learning rate) over as buffers. `bf16`: how the machine computes
/// bf16 products.
FunctionWorking workingOf(func::FuncOp fused,
                          llvm::function_ref<bool(unsigned)> countedArgument,
                          llvm::function_ref<bool(unsigned)> countedResult,
                          llvm::function_ref<bool(unsigned)> staged,
                          Bf16Kernels bf16) {
  RuntimeMemory memory = runtimeMemory(fused, nullptr, bf16);
  FunctionWorking working;
  working.buffersBySize = memory.heldBuffersBySize;
  working.constantBytes = memory.constantBytes;
  working.widenedCopyBytes = memory.widenedCopyBytes;
  working.scratchBytes = memory.scratchBytes;
  working.inFlightBytes = memory.inFlightBytes;
  working.callSites = memory.callSites;
  auto uncount = [&](Type type) {
    auto found = working.buffersBySize.find(bufferBytes(type));
    if (found != working.buffersBySize.end() && --found->second <= 0)
      working.buffersBySize.erase(found);
  };
  for (unsigned i = 0; i < fused.getNumArguments(); ++i) {
    if (staged(i))
      working.stagingBytes = saturatingAdd(
          working.stagingBytes, bufferBytes(fused.getArgumentTypes()[i]));
    if (countedArgument(i))
      uncount(fused.getArgumentTypes()[i]);
  }
  for (unsigned i = 0; i < fused.getNumResults(); ++i)
    if (countedResult(i))
      uncount(fused.getResultTypes()[i]);
  return working;
}

/// The working buffers the cache holds for a stage beside its held
/// micro-batches, `held` (buffers by size). The cache hands a freed buffer
/// out again only for the same size and keeps it from step to step, so
/// it holds, for each size, the most buffers alive at once in a step: the
/// held micro-batches' with the forward's or the backward's during the
/// micro-batches, apply's after them (when the held ones are free and
/// serve apply where the sizes match). Where forward and backward
/// allocate different sizes, the cache holds both working sets.
int64_t cachedWorkingBytes(const FunctionWorking &forward,
                           const FunctionWorking &backward,
                           const FunctionWorking &apply,
                           const std::map<int64_t, int64_t> &held) {
  std::map<int64_t, int64_t> most;
  for (const FunctionWorking *run : {&forward, &backward})
    for (const auto &[bytes, count] : run->buffersBySize)
      most[bytes] = std::max(most[bytes], count);
  for (const auto &[bytes, count] : apply.buffersBySize) {
    auto kept = held.find(bytes);
    int64_t beyondHeld = count - (kept == held.end() ? 0 : kept->second);
    most[bytes] = std::max(most[bytes], beyondHeld);
  }
  return bytesOfBuffers(most);
}

/// The memory outside the cache of functions run one after another in one
/// process: each function's constants, made once and kept; the widened
/// copies' slots, which grow to the largest (the larger function's: a
/// lower bound where their slots differ); scratch, the collectives'
/// temporaries and the staged data, one function's at a time.
int64_t uncachedWorkingBytes(const FunctionWorking &forward,
                             const FunctionWorking &backward,
                             const FunctionWorking &apply) {
  int64_t constants = 0, widened = 0, other = 0;
  for (const FunctionWorking *run : {&forward, &backward, &apply}) {
    constants = saturatingAdd(constants, run->constantBytes);
    widened = std::max(widened, run->widenedCopyBytes);
    other = std::max(other, saturatingAdd(saturatingAdd(run->scratchBytes,
                                                        run->inFlightBytes),
                                          run->stagingBytes));
  }
  return saturatingAdd(saturatingAdd(constants, widened), other);
}

} // namespace

std::vector<std::vector<std::string>> layersOfStages(ModuleOp split) {
  std::vector<std::vector<std::string>> layers;
  for (int64_t stage = 0;; ++stage) {
    auto loss = split.lookupSymbol<func::FuncOp>(stageFunction(stage, "loss"));
    if (!loss)
      break;
    std::vector<std::string> &scopes = layers.emplace_back();
    loss.walk([&](func::CallOp call) {
      if (auto scope =
              call->getAttrOfType<StringAttr>(TesselDialect::kScopeAttrName))
        scopes.push_back(scope.str());
    });
  }
  return layers;
}

const char *stepTimeFormula() {
  return "(p - 1) x (max_s(F_s + B_s) + t_fwd + t_back) + "
         "max_s(m x (F_s + B_s + M_s) + (m - 1) x G_s) + max_s A_s";
}

std::optional<PipelineCost>
buildPipelineCost(ModuleOp partitioned, ModuleOp fused,
                  const std::vector<std::vector<std::string>> &layers,
                  const MachineProfile &profile, std::string &error) {
  auto spec = partitioned->getAttrOfType<DictionaryAttr>(
      TesselDialect::kPipelineAttrName);
  if (!spec) {
    error = "the module is not a pipelined training step (no tessel.pipeline)";
    return std::nullopt;
  }
  PipelineCost cost;
  cost.axis = cast<StringAttr>(spec.get("axis")).str();
  cost.schedule = cast<StringAttr>(spec.get("schedule")).str();
  cost.remat = cast<BoolAttr>(spec.get("remat")).getValue();
  cost.microbatches = cast<IntegerAttr>(spec.get("microbatches")).getInt();
  int64_t numStages = cast<IntegerAttr>(spec.get("stages")).getInt();
  layout::Mesh mesh = toLayoutMesh(getEnclosingMesh(partitioned));
  cost.meshAxes = mesh.axisNames();
  cost.meshSizes = mesh.axisSizes();
  cost.numRanks = mesh.numRanks();
  const MachineProfile &measured =
      profile.hasMemory ? profile : defaultMachineProfile();
  cost.driverBytes = measured.driverBytes;
  int64_t m = cost.microbatches, p = numStages;
  cost.perOpSeconds = profile.perOpSeconds(cost.numRanks);

  // Which stages hold each parameter.
  llvm::StringMap<int64_t> holders;
  for (int64_t s = 0; s < p; ++s)
    if (auto apply =
            partitioned.lookupSymbol<func::FuncOp>(stageFunction(s, "apply")))
      for (unsigned i = 0; i < apply.getNumArguments(); ++i)
        if (argumentRole(apply, i) == "parameter")
          ++holders[argumentName(apply, i)];

  for (int64_t s = 0; s < p; ++s) {
    auto lookup = [&](ModuleOp module, StringRef kind) {
      return module.lookupSymbol<func::FuncOp>(stageFunction(s, kind));
    };
    func::FuncOp forward = lookup(partitioned, "forward"),
                 backward = lookup(partitioned, "backward"),
                 apply = lookup(partitioned, "apply"),
                 fusedForward = lookup(fused, "forward"),
                 fusedBackward = lookup(fused, "backward"),
                 fusedApply = lookup(fused, "apply");
    if (!forward || !backward || !apply || !fusedForward || !fusedBackward ||
        !fusedApply) {
      error = "stage " + std::to_string(s) +
              " lacks its forward, backward or apply function";
      return std::nullopt;
    }
    StageCost stage;
    stage.stage = s;
    if (static_cast<size_t>(s) < layers.size())
      stage.layers = layers[s];

    // What the stage keeps for the step: parameters, state, gradient sums.
    for (unsigned i = 0; i < apply.getNumArguments(); ++i) {
      StringRef name = argumentName(apply, i), role = argumentRole(apply, i);
      int64_t bytes = localBytes(apply.getArgumentTypes()[i]);
      if (role == "parameter") {
        ++stage.parameterTensors;
        stage.parameterElements =
            saturatingAdd(stage.parameterElements, globalElements(apply, i));
        stage.parameterBytes = saturatingAdd(stage.parameterBytes, bytes);
        if (holders.lookup(name) > 1)
          stage.sharedParameters.push_back(name.str());
      } else if (role == "optimizer_state") {
        stage.stateBytes = saturatingAdd(stage.stateBytes, bytes);
      } else if (name.ends_with(".gradient")) {
        stage.gradientSumBytes = saturatingAdd(stage.gradientSumBytes, bytes);
      }
    }

    // What a micro-batch keeps from forward to backward: as the driver
    // holds it, every data argument and activation received, and the
    // residuals, by name.
    std::string input = inputPrefix(s), output = inputPrefix(s + 1),
                residual = residualPrefix(s);
    llvm::StringSet<> kept;
    SmallVector<Type> keptTypes;
    auto keep = [&](StringRef name, Type type) {
      if (!kept.insert(name).second)
        return;
      stage.keptBytes = saturatingAdd(stage.keptBytes, localBytes(type));
      keptTypes.push_back(type);
    };
    auto keptArgument = [&](func::FuncOp func, unsigned i) {
      StringRef name = argumentName(func, i);
      return argumentRole(func, i) != "parameter" &&
             !name.starts_with(output); // a cotangent from stage s+1
    };
    for (unsigned i = 0; i < forward.getNumArguments(); ++i)
      if (keptArgument(forward, i))
        keep(argumentName(forward, i), forward.getArgumentTypes()[i]);
    for (unsigned i = 0; i < backward.getNumArguments(); ++i) {
      StringRef name = argumentName(backward, i);
      if (!keptArgument(backward, i))
        continue;
      keep(name, backward.getArgumentTypes()[i]);
      if (name.starts_with(residual))
        stage.residualBytes = saturatingAdd(
            stage.residualBytes, localBytes(backward.getArgumentTypes()[i]));
    }
    stage.microbatchesHeld =
        cost.schedule == "gpipe" ? m : std::min<int64_t>(m, p - s);
    stage.heldBytes = saturatingMul(stage.microbatchesHeld, stage.keptBytes);

    // Sent per micro-batch: the activations for stage s+1, the gradients
    // of those received for stage s-1.
    SmallVector<Type> forwardMessages, backMessages;
    for (unsigned i = 0; i < forward.getNumResults(); ++i)
      if (resultName(forward, i).starts_with(output))
        forwardMessages.push_back(forward.getResultTypes()[i]);
    for (unsigned i = 0; i < backward.getNumResults(); ++i)
      if (resultName(backward, i).starts_with(input))
        backMessages.push_back(backward.getResultTypes()[i]);
    for (Type type : forwardMessages)
      stage.sentForwardBytes = saturatingAdd(
          stage.sentForwardBytes, saturatingMul(m, localBytes(type)));
    for (Type type : backMessages)
      stage.sentBackBytes = saturatingAdd(stage.sentBackBytes,
                                          saturatingMul(m, localBytes(type)));
    stage.sendForwardSeconds =
        sendSeconds(forwardMessages, profile, cost.numRanks);
    stage.sendBackSeconds = sendSeconds(backMessages, profile, cost.numRanks);

    // The driver's work per micro-batch beside the functions: the messages
    // it packs, unpacks and waits for (the activations from stage s-1 are
    // the forward's stage{s}.input arguments, the cotangents from stage s+1
    // the backward's stage{s+1}.input ones), and the gradient sums.
    SmallVector<Type> receivedMessages;
    for (unsigned i = 0; i < forward.getNumArguments(); ++i)
      if (argumentName(forward, i).starts_with(input))
        receivedMessages.push_back(forward.getArgumentTypes()[i]);
    for (unsigned i = 0; i < backward.getNumArguments(); ++i)
      if (argumentName(backward, i).starts_with(output))
        receivedMessages.push_back(backward.getArgumentTypes()[i]);
    stage.messageSeconds =
        messageHandlingSeconds(forwardMessages, /*received=*/false, profile,
                               cost.numRanks) +
        messageHandlingSeconds(backMessages, /*received=*/false, profile,
                               cost.numRanks) +
        messageHandlingSeconds(receivedMessages, /*received=*/true, profile,
                               cost.numRanks);
    // Each sum is one op the driver runs through the runtime, with a
    // compiled op's work around its kernel (the profile's per-op seconds).
    for (unsigned i = 0; i < apply.getNumArguments(); ++i)
      if (argumentRole(apply, i) != "parameter" &&
          argumentRole(apply, i) != "optimizer_state" &&
          argumentName(apply, i).ends_with(".gradient"))
        stage.gradientSumSeconds +=
            profile.kernelSeconds("elementwise",
                                  localElements(apply.getArgumentTypes()[i]),
                                  cost.numRanks) +
            cost.perOpSeconds;

    FunctionWork forwardWork = workOf(forward, fusedForward, profile),
                 backwardWork = workOf(backward, fusedBackward, profile),
                 applyWork = workOf(apply, fusedApply, profile);
    stage.forwardOps = forwardWork.runtimeOps;
    stage.backwardOps = backwardWork.runtimeOps;
    stage.applyOps = applyWork.runtimeOps;
    stage.forwardFlops = forwardWork.flops;
    stage.forwardSeconds = forwardWork.seconds;
    stage.backwardFlops = backwardWork.flops;
    stage.backwardSeconds = backwardWork.seconds;
    stage.applyFlops = applyWork.flops;
    stage.applySeconds = applyWork.seconds;
    // Forward and backward run m times a step, apply once (the gradients'
    // data-parallel all_reduces are apply's: tessel-reduce-gradients-once-
    // per-step).
    stage.collectivesPerStep = saturatingAdd(
        saturatingMul(m, saturatingAdd(forwardWork.collectives,
                                       backwardWork.collectives)),
        applyWork.collectives);
    stage.collectiveBytesPerStep = saturatingAdd(
        saturatingMul(m, saturatingAdd(forwardWork.collectiveBytes,
                                       backwardWork.collectiveBytes)),
        applyWork.collectiveBytes);

    // Working memory: what each function allocates beyond the parameters
    // and the kept micro-batches (its own arguments) and, for the forward,
    // the residuals it makes for the backward.
    // The data arguments (tokens, labels), which the driver stages: not
    // parameters, messages between stages or residuals.
    auto dataArgument = [&](func::FuncOp func, unsigned i) {
      StringRef name = argumentName(func, i);
      return argumentRole(func, i) != "parameter" && !name.starts_with(input) &&
             !name.starts_with(output) && !name.starts_with(residual);
    };
    FunctionWorking forwardWorking = workingOf(
        fusedForward,
        [&](unsigned i) {
          return argumentRole(fusedForward, i) == "parameter" ||
                 keptArgument(fusedForward, i);
        },
        [&](unsigned i) {
          return resultName(fusedForward, i).starts_with(residual);
        },
        [&](unsigned i) { return dataArgument(fusedForward, i); },
        profile.bf16Kernels());
    FunctionWorking backwardWorking = workingOf(
        fusedBackward,
        [&](unsigned i) {
          return argumentRole(fusedBackward, i) == "parameter" ||
                 keptArgument(fusedBackward, i);
        },
        [](unsigned) { return false; },
        [&](unsigned i) { return dataArgument(fusedBackward, i); },
        profile.bf16Kernels());
    // Apply's arguments are the parameters, state and sums, and the
    // learning rate, none of them staged.
    FunctionWorking applyWorking = workingOf(
        fusedApply,
        [&](unsigned i) {
          return argumentName(fusedApply, i) != "learning_rate";
        },
        [](unsigned) { return false; }, [](unsigned) { return false; },
        profile.bf16Kernels());
    stage.forwardWorkingBytes = forwardWorking.totalBytes();
    stage.backwardWorkingBytes = backwardWorking.totalBytes();
    stage.applyWorkingBytes = applyWorking.totalBytes();
    // The three run one after another on one buffer cache (and in one
    // process): from the second step on the stage holds, by size, the
    // most buffers alive at once beside its micro-batches.
    std::map<int64_t, int64_t> heldBySize;
    for (Type type : keptTypes)
      heldBySize[bufferBytes(type)] += stage.microbatchesHeld;
    stage.cachedWorkingBytes = cachedWorkingBytes(
        forwardWorking, backwardWorking, applyWorking, heldBySize);
    stage.otherWorkingBytes =
        uncachedWorkingBytes(forwardWorking, backwardWorking, applyWorking);
    // The driver also runs the stage's init once, whose call sites stay
    // prepared too.
    // (The driver's own adders of the micro-batches' gradients are call
    // sites too, one per gradient tensor with two or more micro-batches,
    // not counted here.)
    int64_t initSites = runtimeOpCount(lookup(fused, "init"));
    stage.callSiteBytes = measured.callSitesBytes(saturatingAdd(
        saturatingAdd(initSites, forwardWorking.callSites),
        saturatingAdd(backwardWorking.callSites, applyWorking.callSites)));
    stage.peakBytes = saturatingAdd(
        saturatingAdd(saturatingAdd(stage.parameterBytes, stage.stateBytes),
                      saturatingAdd(stage.gradientSumBytes, stage.heldBytes)),
        saturatingAdd(stage.cachedWorkingBytes, stage.otherWorkingBytes));
    stage.memoryBytes = saturatingAdjust(
        saturatingAdd(stage.peakBytes, cost.driverBytes), stage.callSiteBytes);
    cost.stages.push_back(std::move(stage));
  }

  cost.bubbleFraction = double(p - 1) / double(m + p - 1);
  double busiest = -1;
  for (const StageCost &stage : cost.stages) {
    double busy = stage.busySeconds(m);
    if (busy > busiest) {
      busiest = busy;
      cost.slowestStage = stage.stage;
    }
    cost.fillSlotSeconds = std::max(
        cost.fillSlotSeconds, stage.forwardSeconds + stage.backwardSeconds);
    cost.sendForwardSeconds =
        std::max(cost.sendForwardSeconds, stage.sendForwardSeconds);
    cost.sendBackSeconds =
        std::max(cost.sendBackSeconds, stage.sendBackSeconds);
    cost.applySeconds = std::max(cost.applySeconds, stage.applySeconds);
  }
  // The busiest stage runs its m forwards and backwards, the driver's work
  // around each (messages, gradient sums), and waits p - 1 slots while the
  // pipeline fills and drains; the messages of the first micro-batch's way
  // forward and the last one's way back lie on that wait.
  cost.stepSeconds =
      double(p - 1) * (cost.fillSlotSeconds + cost.sendForwardSeconds +
                       cost.sendBackSeconds) +
      busiest + cost.applySeconds;
  return cost;
}

} // namespace tessel::analysis
