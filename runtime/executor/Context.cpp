//===- Context.cpp - What one rank's program runs with --------------------===//

#include "executor/Context.h"

#include "executor/Backend.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "tessel/runtime/kernels.h"
#endif

#include <fmt/format.h>

namespace tessel::runtime {

void ContextDeleter::operator()(tessel_context_t *context) const {
  if (context->backendStarted)
    activeBackend().stop(*context);
#ifdef TESSEL_RUNTIME_HAS_KERNELS
  tessel_kernels_destroy(context->kernels);
#endif
  delete context;
}

ContextPtr createContext(tessel_comm_t *comm, layout::Mesh mesh,
                         std::string &error) {
  ContextPtr context(new tessel_context_t);
  context->comm = comm;
  context->mesh = std::move(mesh);
  if (comm && tessel_comm_rank(comm, &context->rank) != TESSEL_STATUS_OK) {
    error = tessel_last_error_message();
    return nullptr;
  }
#ifdef TESSEL_RUNTIME_HAS_KERNELS
  if (tessel_kernels_create(&context->kernels) != TESSEL_STATUS_OK) {
    error = fmt::format("cannot start the oneDNN kernels: {}",
                        tessel_last_error_message());
    return nullptr;
  }
#endif
  if (!activeBackend().start(*context, error))
    return nullptr;
  context->backendStarted = true;
  return context;
}

} // namespace tessel::runtime
