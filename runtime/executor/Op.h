//===- Op.h - Ops prepared from their descriptors ---------------*- C++ -*-===//
//
// tessel_rt_execute parses a call site's descriptor once into a PreparedOp:
// the descriptor and a kernel with its attributes already resolved, so each
// later call only moves data. Each family of ops (model-level ops on the
// reference kernels, einsum on oneDNN, mesh-level ops on the communicator)
// registers a builder per op name.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_OP_H
#define TESSEL_RUNTIME_EXECUTOR_OP_H

#include "executor/Descriptor.h"
#include "tessel/runtime/program.h"

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace tessel::runtime {

/// Runs the op on the operand buffers into the result buffer; reports
/// failures by throwing OpError.
using Kernel = std::function<void(tessel_context_t &context,
                                  void *const *operands, void *result)>;

/// Makes an op's kernel from its descriptor, checking the attributes and
/// operand count (OpError otherwise).
using KernelBuilder = Kernel (*)(const OpDescriptor &desc);

using KernelRegistry = std::map<std::string, KernelBuilder, std::less<>>;

/// Each adds the builders of its family under the ops' full names
/// ("tessel.einsum").
void registerModelOps(KernelRegistry &registry);
void registerMeshOps(KernelRegistry &registry);

/// A mesh-level op started by tessel_rt_start and not yet waited for. Both
/// report failures by throwing OpError.
class InFlight {
public:
  virtual ~InFlight() = default;
  /// Lets the communication progress; true once the result buffer holds
  /// the result.
  virtual bool test() = 0;
  /// Blocks until the result buffer holds the result.
  virtual void wait() = 0;
};

/// Starts the op on the operand buffers into the result buffer, which both
/// must stay untouched until the returned call is waited for.
using StartKernel = std::function<std::unique_ptr<InFlight>(
    tessel_context_t &context, void *const *operands, void *result)>;
using StartBuilder = StartKernel (*)(const OpDescriptor &desc);
using StartRegistry = std::map<std::string, StartBuilder, std::less<>>;

/// The non-blocking forms of the host's collectives (all_reduce,
/// all_gather, reduce_scatter).
void registerMeshStarts(StartRegistry &registry);

struct PreparedOp {
  /// The site's descriptor without its attributes (the kernels took what
  /// they need of them): for the checks of each call and the messages.
  OpDescriptor desc;
  Kernel kernel;
  /// The op's non-blocking form; empty where it has none (then
  /// tessel_rt_start runs `kernel` to the end and tessel_rt_wait has
  /// nothing to wait for).
  StartKernel start;
  /// The call that tessel_rt_start began and tessel_rt_wait has not ended.
  /// One per call site: a compiled function waits for every collective it
  /// starts before it returns.
  std::unique_ptr<InFlight> inFlight;
  /// Calls and time spent in the kernel (for a started collective, in its
  /// start and its wait), counted while op profiling is on
  /// (enableOpProfiling in Execute.h).
  int64_t calls = 0;
  double seconds = 0;
  /// Of those calls, the reference kernels they ran (executor/
  /// ReferenceKernel.h): the op's slow path.
  int64_t referenceCalls = 0;
  /// Whether TESSEL_REPORT_REFERENCE_KERNELS has named this site.
  bool referenceReported = false;
};

/// Parses `descriptor` and builds its kernel; OpError when either fails.
/// `desc` receives what was parsed even on failure, for the message; on
/// success it is moved into the prepared op, keeping its name and location.
std::unique_ptr<PreparedOp> prepareOp(const char *descriptor,
                                      OpDescriptor &desc);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_OP_H
