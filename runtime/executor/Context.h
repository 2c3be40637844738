//===- Context.h - What one rank's program runs with ------------*- C++ -*-===//
//
// The definition behind the opaque tessel_context_t of
// tessel/runtime/program.h. The driver makes one per rank after creating
// the communicator; the executor's mesh-level ops use the communicator, and
// the einsum fast path the oneDNN kernels.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_CONTEXT_H
#define TESSEL_RUNTIME_EXECUTOR_CONTEXT_H

#include "layouts/Mesh.h"
#include "tessel/runtime/comm.h"
#include "tessel/runtime/program.h"

#include <deque>
#include <memory>
#include <string>

struct tessel_kernels_t;

namespace tessel::runtime {
/// A device backend's per-rank state (executor/Backend.h), opaque here.
struct DeviceState;
struct PreparedOp;
} // namespace tessel::runtime

struct tessel_context_t {
  /// Not owned: the driver creates and destroys it. NULL in a context made
  /// for model-level ops only, where mesh-level ops are an error.
  tessel_comm_t *comm = nullptr;
  tessel::layout::Mesh mesh;
  /// The rank's number in the job, which is its place on the mesh (blocks
  /// of split parameters) and names it in error messages; 0 without a
  /// communicator.
  int64_t rank = 0;
  /// Owned; NULL when the runtime was built without oneDNN, and then einsum
  /// runs on the reference kernels.
  tessel_kernels_t *kernels = nullptr;
  /// Owned by the active backend, which made it in start(); NULL for the
  /// host.
  tessel::runtime::DeviceState *device = nullptr;
  /// Whether the backend's start() succeeded, so that stop() is due.
  bool backendStarted = false;
  /// Call sites with a collective in flight (tessel_rt_start), oldest
  /// first, that no progress test has yet seen complete.
  std::deque<tessel::runtime::PreparedOp *> inFlight;
};

namespace tessel::runtime {

struct ContextDeleter {
  void operator()(tessel_context_t *context) const;
};
using ContextPtr = std::unique_ptr<tessel_context_t, ContextDeleter>;

/// Makes a rank's context over `comm` (which may be NULL) and `mesh`, and
/// starts the active backend in it (collective over MPI_COMM_WORLD with a
/// communicator). On failure (oneDNN could not start, no CUDA device)
/// returns null and says why in `error`.
ContextPtr createContext(tessel_comm_t *comm, layout::Mesh mesh,
                         std::string &error);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_CONTEXT_H
