//===- Execute.h - Running an op, with the error as a value -----*- C++ -*-===//
//
// tessel_rt_execute ends the job on an error; tests call this instead to see
// the message without ending the test program.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_EXECUTE_H
#define TESSEL_RUNTIME_EXECUTOR_EXECUTE_H

#include "tessel/runtime/program.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel::runtime {

/// Does what tessel_rt_execute does, but returns the message it would print
/// ("tessel: rank 0: error at mlp.mlir:3:5 in tessel.gather: ...") instead
/// of ending the job; nothing on success.
std::optional<std::string> tryExecute(tessel_context_t *context, void **site,
                                      const char *descriptor,
                                      void *const *operands,
                                      int32_t numOperands, void *result);

/// tessel_rt_start and tessel_rt_wait, with the error as a value.
std::optional<std::string> tryStart(tessel_context_t *context, void **site,
                                    const char *descriptor,
                                    void *const *operands, int32_t numOperands,
                                    void *result);
std::optional<std::string> tryWait(tessel_context_t *context, void **site);

/// From now on, times every op's kernel and counts its reference kernels
/// (the driver's --profile). The time is the host's: a backend that queues
/// work (CUDA) is timed as it queues.
/// The counts are plain fields of each call site, for a program run by one
/// thread per rank, as the driver runs it.
void enableOpProfiling();
/// Stops timing ops until the next enableOpProfiling (the driver leaves
/// validation between steps out of a training profile).
void disableOpProfiling();

/// The calls and kernel time of one call site since profiling began.
struct OpTime {
  std::string op;  // "tessel.einsum"
  std::string loc; // "model.mlir:12:7"
  int64_t calls = 0;
  /// Time the rank spent in the op's calls: its kernel, or for a started
  /// collective its start and its wait.
  double seconds = 0;
  /// Reference kernels the calls ran (executor/ReferenceKernel.h): a call
  /// on a slow path, which no fast kernel took.
  int64_t referenceCalls = 0;
};

/// Every call site that ran while profiling was on.
std::vector<OpTime> opTimes();

/// The time, while profiling was on, during which some started collective
/// was in flight (not yet seen complete by a test between ops) and the rank
/// was not waiting for one: communication that went on behind other ops.
/// Time in waits is left out; an interval ends when a test between ops
/// first sees its collectives complete, so it can exceed the true
/// transfer time by up to one op.
double overlappedSeconds();

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_EXECUTE_H
