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

#include <fmt/format.h>

#include <atomic>
#include <chrono>
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
        result.push_back({op->desc.op, op->desc.loc, op->calls, op->seconds});
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

} // namespace

namespace tessel::runtime {

void enableOpProfiling() { profiling = true; }

void disableOpProfiling() { profiling = false; }

std::vector<OpTime> opTimes() { return preparedOps().times(); }

std::optional<std::string> tryExecute(tessel_context_t *context, void **site,
                                      const char *descriptor,
                                      void *const *operands,
                                      int32_t numOperands, void *result) {
  // Only a site's first call parses: an OpDescriptor costs allocations,
  // which every call of a small op would otherwise pay.
  static const OpDescriptor unknownOp;
  std::unique_ptr<OpDescriptor> parsed;
  const OpDescriptor *desc = &unknownOp;
  try {
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
    if (numOperands < 0 ||
        static_cast<size_t>(numOperands) != desc->operands.size())
      throw OpError(
          fmt::format("called with {} operands, the descriptor has {}",
                      numOperands, desc->operands.size()));
    for (int32_t i = 0; i < numOperands; ++i)
      if (!operands[i] && desc->operands[i].numElements() > 0)
        throw OpError(fmt::format("operand {} is NULL", i));
    if (!result && desc->result.numElements() > 0)
      throw OpError("the result buffer is NULL");
    if (profiling.load(std::memory_order_relaxed)) {
      auto start = std::chrono::steady_clock::now();
      op->kernel(*context, operands, result);
      std::chrono::duration<double> spent =
          std::chrono::steady_clock::now() - start;
      ++op->calls;
      op->seconds += spent.count();
    } else {
      op->kernel(*context, operands, result);
    }
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

} // extern "C"
