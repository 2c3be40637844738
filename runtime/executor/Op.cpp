//===- Op.cpp - Ops prepared from their descriptors -----------------------===//

#include "executor/Op.h"

#include "executor/Backend.h"
#include "executor/WidenedOps.h"

#include <fmt/format.h>

#include <optional>

namespace tessel::runtime {

namespace {

struct Registries {
  KernelRegistry kernels;
  StartRegistry starts;
};

const Registries &registries() {
  static const Registries builders = [] {
    Registries result;
    registerModelOps(result.kernels);
    registerMeshOps(result.kernels);
    registerMeshStarts(result.starts);
    KernelRegistry host = result.kernels;
    // A device backend replaces the host kernels with its own; the host's
    // non-blocking form of an op it replaces no longer applies (the CUDA
    // runtime's collectives are queued on its stream instead).
    activeBackend().registerOps(result.kernels);
    for (const auto &[name, builder] : result.kernels) {
      auto hostBuilder = host.find(name);
      if (hostBuilder == host.end() || hostBuilder->second != builder)
        result.starts.erase(name);
    }
    return result;
  }();
  return builders;
}

} // namespace

std::unique_ptr<PreparedOp> prepareOp(const char *descriptor,
                                      OpDescriptor &desc) {
  parseDescriptor(descriptor, desc);
  const Registries &builders = registries();
  auto builder = builders.kernels.find(desc.op);
  if (builder == builders.kernels.end())
    throw OpError(
        fmt::format("the runtime has no kernel for op '{}'", desc.op));
  if (!desc.moreResults.empty() && desc.op != "tessel.fused")
    throw OpError(fmt::format("op '{}' has {} results; only a fused op may "
                              "have more than one",
                              desc.op, desc.moreResults.size() + 1));
  auto op = std::make_unique<PreparedOp>();
  // A computing op on f16 (and a bf16 one that oneDNN has no kernel for)
  // runs its f32 kernel between conversions (WidenedOps.h); the device
  // backends' kernels take those types as they are.
  std::optional<Kernel> widened;
  if (activeBackend().buffersAreHostMemory())
    widened = buildWidened(desc, builder->second);
  op->kernel = widened ? std::move(*widened) : builder->second(desc);
  if (auto start = builders.starts.find(desc.op);
      start != builders.starts.end())
    op->start = start->second(desc);
  // The kernels keep what they need of the attributes; the prepared op
  // keeps the descriptor for its checks and messages only. A fused op's
  // body is most of a step's descriptors: keeping every site's JSON held
  // about 1.6 KiB a call site (5.4 KiB against 3.8 calibrated) for the
  // life of the process.
  op->desc = std::move(desc);
  op->desc.attrs = nlohmann::json::object();
  // The caller's copy still names the op, for a failure before it keeps
  // the prepared one.
  desc.op = op->desc.op;
  desc.loc = op->desc.loc;
  return op;
}

} // namespace tessel::runtime
