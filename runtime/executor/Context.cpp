//===- Context.cpp - What one rank's program runs with --------------------===//

#include "executor/Context.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "tessel/runtime/kernels.h"
#endif

#include <fmt/format.h>

namespace tessel::runtime {

void ContextDeleter::operator()(tessel_context_t *context) const {
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
  return context;
}

} // namespace tessel::runtime
