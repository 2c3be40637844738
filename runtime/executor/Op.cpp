//===- Op.cpp - Ops prepared from their descriptors -----------------------===//

#include "executor/Op.h"

#include "executor/Backend.h"

#include <fmt/format.h>

namespace tessel::runtime {

namespace {

const KernelRegistry &registry() {
  static const KernelRegistry builders = [] {
    KernelRegistry result;
    registerModelOps(result);
    registerMeshOps(result);
    // A device backend replaces the host kernels with its own.
    activeBackend().registerOps(result);
    return result;
  }();
  return builders;
}

} // namespace

std::unique_ptr<PreparedOp> prepareOp(const char *descriptor,
                                      OpDescriptor &desc) {
  parseDescriptor(descriptor, desc);
  auto builder = registry().find(desc.op);
  if (builder == registry().end())
    throw OpError(
        fmt::format("the runtime has no kernel for op '{}'", desc.op));
  auto op = std::make_unique<PreparedOp>();
  op->kernel = builder->second(desc);
  op->desc = desc;
  return op;
}

} // namespace tessel::runtime
