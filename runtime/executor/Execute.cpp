//===- Execute.cpp - The C entry points of tessel/runtime/program.h -------===//
//
// No exception crosses the C ABI: everything that can throw (JSON parsing,
// OpError, bad_alloc) is caught here and becomes the job's error.
//
//===----------------------------------------------------------------------===//

#include "executor/Execute.h"

#include "executor/Backend.h"
#include "executor/Context.h"
#include "executor/Fatal.h"
#include "executor/Op.h"
#include "executor/ReferenceKernel.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

using namespace tessel::runtime;

namespace {

/// Owns every PreparedOp until the process exits. Call sites are static
/// slots in the compiled program, which lives as long as the process, so
/// the ops they point to must too; keeping them here (rather than leaking)
/// lets leak checkers see them freed.
class PreparedOps {
public:
  PreparedOp *keep(std::unique_ptr<PreparedOp> op) {
    std::lock_guard<std::mutex> lock(mutex);
    ops.push_back(std::move(op));
    return ops.back().get();
  }

  std::vector<OpTime> times() {
    std::lock_guard<std::mutex> lock(mutex);
    std::vector<OpTime> result;
    for (const std::unique_ptr<PreparedOp> &op : ops)
      if (op->calls > 0)
        result.push_back({op->desc.op, op->desc.loc, op->calls, op->seconds,
                          op->referenceCalls});
    return result;
  }

private:
  std::mutex mutex;
  std::vector<std::unique_ptr<PreparedOp>> ops;
};

PreparedOps &preparedOps() {
  static PreparedOps ops;
  return ops;
}

std::string errorMessage(const tessel_context_t *context,
                         const OpDescriptor &desc, const std::string &what) {
  return fmt::format("tessel: rank {}: error at {} in {}: {}",
                     context ? context->rank : 0,
                     desc.loc.empty() ? "an unknown location" : desc.loc,
                     desc.op.empty() ? "an unknown op" : desc.op, what);
}

std::atomic<bool> profiling{false};

/// While profiling: the time some collective was in flight outside waits
/// (overlappedSeconds), and when the current such stretch began (0 when
/// none is open). Plain fields, as the op counts: one thread per rank runs
/// the program.
double overlapped = 0;
double overlapSince = 0;

double secondsNow() {
  return std::chrono::duration<double>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// Runs `body` (which points `desc` at the op once it knows it), turning
/// what it throws into the message tessel_rt_execute prints.
template <typename Body>
std::optional<std::string> reportingErrors(const tessel_context_t *context,
                                           const OpDescriptor *&desc,
                                           Body &&body) {
  try {
    body();
    return std::nullopt;
  } catch (const OpError &error) {
    return errorMessage(context, *desc, error.what());
  } catch (const std::bad_alloc &) {
    return errorMessage(context, *desc, "out of memory");
  } catch (const std::exception &error) {
    return errorMessage(context, *desc,
                        fmt::format("internal error: {}", error.what()));
  } catch (...) {
    return errorMessage(context, *desc, "internal error");
  }
}

/// The op of a call site, prepared from its descriptor on the site's first
/// call, with this call's buffers checked against it. `desc` points at the
/// descriptor as soon as it is parsed (in `parsed` until the op is kept).
PreparedOp &siteOp(tessel_context_t *context, void **site,
                   const char *descriptor, void *const *operands,
                   int32_t numOperands, void *result,
                   std::unique_ptr<OpDescriptor> &parsed,
                   const OpDescriptor *&desc) {
  if (!context)
    throw OpError("the context is NULL");
  if (!site)
    throw OpError("the call site's cache slot is NULL");
  auto *op = static_cast<PreparedOp *>(*site);
  if (!op) {
    parsed = std::make_unique<OpDescriptor>();
    desc = parsed.get();
    op = preparedOps().keep(prepareOp(descriptor, *parsed));
    *site = op;
  }
  desc = &op->desc;
  // The buffers of the results after the first follow the operands.
  size_t expected = desc->operands.size() + desc->moreResults.size();
  if (numOperands < 0 || static_cast<size_t>(numOperands) != expected)
    throw OpError(fmt::format("called with {} operands, the descriptor has {}",
                              numOperands, expected));
  for (size_t i = 0; i < desc->operands.size(); ++i)
    if (!operands[i] && desc->operands[i].numElements() > 0)
      throw OpError(fmt::format("operand {} is NULL", i));
  for (size_t i = 0; i < desc->moreResults.size(); ++i)
    if (!operands[desc->operands.size() + i] &&
        desc->moreResults[i].numElements() > 0)
      throw OpError(fmt::format("the buffer of result {} is NULL", i + 1));
  if (!result && desc->result.numElements() > 0)
    throw OpError("the result buffer is NULL");
  return *op;
}

/// Whether TESSEL_REPORT_REFERENCE_KERNELS is set: each call site is named
/// on stderr the first time it runs a reference kernel.
bool reportingReferenceKernels() {
  static const bool report = std::getenv("TESSEL_REPORT_REFERENCE_KERNELS");
  return report;
}

/// Counts (while profiling) and reports the reference kernels one call of
/// `op` ran.
void noteReferenceKernels(PreparedOp &op, const tessel_context_t &context,
                          int64_t calls, bool timed) {
  if (timed)
    op.referenceCalls += calls;
  if (op.referenceReported || !reportingReferenceKernels())
    return;
  op.referenceReported = true;
  std::string operands;
  for (const TensorType &operand : op.desc.operands)
    operands += (operands.empty() ? "" : ", ") + operand.str();
  fmt::print(stderr,
             "tessel: rank {}: {} at {} runs on a reference kernel (a slow "
             "path): ({}) -> {}\n",
             context.rank, op.desc.op,
             op.desc.loc.empty() ? "an unknown location" : op.desc.loc,
             operands, op.desc.result.str());
  std::fflush(stderr);
}

/// Runs the op's blocking kernel, timed while profiling (on a device, from
/// an idle device to the kernel's end); the reference
/// kernels it runs are noted.
void runKernel(PreparedOp &op, tessel_context_t &context, void *const *operands,
               void *result) {
  int64_t referenceBefore = referenceKernelCalls();
  bool timed = profiling.load(std::memory_order_relaxed);
  if (timed) {
    Backend &backend = activeBackend();
    backend.waitForDevice(context);
    double start = secondsNow();
    op.kernel(context, operands, result);
    backend.waitForDevice(context);
    ++op.calls;
    op.seconds += secondsNow() - start;
  } else {
    op.kernel(context, operands, result);
  }
  if (int64_t calls = referenceKernelCalls() - referenceBefore)
    noteReferenceKernels(op, context, calls, timed);
}

/// Lets the collectives in flight progress. Testing the oldest drives
/// MPI's progress engine, which moves every started collective, so the
/// others are tested only once the oldest is complete: one MPI_Test per op
/// in the common case.
void driveProgress(tessel_context_t &context) {
  bool dropped = false;
  while (!context.inFlight.empty()) {
    if (!context.inFlight.front()->inFlight->test())
      return;
    context.inFlight.pop_front();
    dropped = true;
  }
  if (dropped && overlapSince > 0) {
    overlapped += secondsNow() - overlapSince;
    overlapSince = 0;
  }
}

} // namespace

namespace tessel::runtime {

void enableOpProfiling() { profiling = true; }

void disableOpProfiling() { profiling = false; }

std::vector<OpTime> opTimes() { return preparedOps().times(); }

double overlappedSeconds() { return overlapped; }

std::optional<std::string> tryExecute(tessel_context_t *context, void **site,
                                      const char *descriptor,
                                      void *const *operands,
                                      int32_t numOperands, void *result) {
  // Only a site's first call parses: an OpDescriptor costs allocations,
  // which every call of a small op would otherwise pay.
  static const OpDescriptor unknownOp;
  std::unique_ptr<OpDescriptor> parsed;
  const OpDescriptor *desc = &unknownOp;
  return reportingErrors(context, desc, [&] {
    PreparedOp &op = siteOp(context, site, descriptor, operands, numOperands,
                            result, parsed, desc);
    driveProgress(*context);
    runKernel(op, *context, operands, result);
  });
}

std::optional<std::string> tryStart(tessel_context_t *context, void **site,
                                    const char *descriptor,
                                    void *const *operands, int32_t numOperands,
                                    void *result) {
  static const OpDescriptor unknownOp;
  std::unique_ptr<OpDescriptor> parsed;
  const OpDescriptor *desc = &unknownOp;
  return reportingErrors(context, desc, [&] {
    PreparedOp &op = siteOp(context, site, descriptor, operands, numOperands,
                            result, parsed, desc);
    if (op.inFlight)
      throw OpError("started again before the wait of its previous start");
    driveProgress(*context);
    if (!op.start) {
      runKernel(op, *context, operands, result);
      return;
    }
    bool timed = profiling.load(std::memory_order_relaxed);
    double begin = timed ? secondsNow() : 0;
    op.inFlight = op.start(*context, operands, result);
    context->inFlight.push_back(&op);
    if (timed) {
      double started = secondsNow();
      ++op.calls;
      op.seconds += started - begin;
      if (overlapSince == 0)
        overlapSince = started;
    }
  });
}

std::optional<std::string> tryWait(tessel_context_t *context, void **site) {
  static const OpDescriptor unknownOp;
  const OpDescriptor *desc = &unknownOp;
  return reportingErrors(context, desc, [&] {
    if (!context)
      throw OpError("the context is NULL");
    auto *op = site ? static_cast<PreparedOp *>(*site) : nullptr;
    if (!op)
      throw OpError("waits for a call site that was never started");
    desc = &op->desc;
    // An op without a non-blocking form finished in tessel_rt_start.
    if (!op->inFlight)
      return;
    bool timed = profiling.load(std::memory_order_relaxed);
    double begin = timed ? secondsNow() : 0;
    // The rank waits from here: no overlap until the wait ends.
    if (timed && overlapSince > 0)
      overlapped += begin - overlapSince;
    overlapSince = 0;
    auto listed =
        std::find(context->inFlight.begin(), context->inFlight.end(), op);
    if (listed != context->inFlight.end())
      context->inFlight.erase(listed);
    std::unique_ptr<InFlight> call = std::move(op->inFlight);
    call->wait();
    if (timed) {
      double end = secondsNow();
      op->seconds += end - begin;
      if (!context->inFlight.empty())
        overlapSince = end;
    }
  });
}

} // namespace tessel::runtime

extern "C" {

void *tessel_rt_alloc(tessel_context_t *context, int64_t bytes) {
  // Host memory in the CPU runtime, device memory in the CUDA one.
  void *buffer = activeBackend().allocate(context, bytes);
  if (!buffer)
    fatalError(fmt::format("tessel: rank {}: error: out of memory allocating "
                           "{} bytes (the {} runtime)",
                           context ? context->rank : 0, bytes,
                           activeBackend().name()));
  return buffer;
}

void tessel_rt_free(tessel_context_t *context, void *buffer) {
  if (buffer)
    activeBackend().release(context, buffer);
}

void tessel_rt_execute(tessel_context_t *context, void **site,
                       const char *descriptor, void *const *operands,
                       int32_t num_operands, void *result) {
  if (std::optional<std::string> error =
          tryExecute(context, site, descriptor, operands, num_operands, result))
    fatalError(*error);
}

void tessel_rt_start(tessel_context_t *context, void **site,
                     const char *descriptor, void *const *operands,
                     int32_t num_operands, void *result) {
  if (std::optional<std::string> error =
          tryStart(context, site, descriptor, operands, num_operands, result))
    fatalError(*error);
}

void tessel_rt_wait(tessel_context_t *context, void **site) {
  if (std::optional<std::string> error = tryWait(context, site))
    fatalError(*error);
}

} // extern "C"
