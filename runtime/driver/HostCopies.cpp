//===- HostCopies.cpp - State tensors in host memory for checkpoints ------===//

#include "driver/HostCopies.h"

#include "executor/Backend.h"

namespace tessel::driver {

HostCopies::HostCopies(tessel_context_t &context,
                       std::vector<StateTensor> tensors)
    : context(context), buffers(std::move(tensors)) {
  if (runtime::activeBackend().buffersAreHostMemory()) {
    host = buffers;
    return;
  }
  for (const StateTensor &tensor : buffers) {
    storage.emplace_back(static_cast<size_t>(tensor.spec->local.numBytes()));
    host.push_back({tensor.spec, storage.back().data()});
  }
}

void HostCopies::fetch() {
  if (storage.empty())
    return;
  for (size_t i = 0; i < buffers.size(); ++i)
    runtime::activeBackend().copyFromBuffer(
        context, storage[i].data(), buffers[i].local, storage[i].size());
}

void HostCopies::store() {
  if (storage.empty())
    return;
  for (size_t i = 0; i < buffers.size(); ++i)
    runtime::activeBackend().copyToBuffer(context, buffers[i].local,
                                          storage[i].data(), storage[i].size());
}

} // namespace tessel::driver
