//===- Execute.h - Running an op, with the error as a value -----*- C++ -*-===//
//
// tessel_rt_execute ends the job on an error; tests call this instead to see
// the message without ending the test program.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_EXECUTE_H
#define TESSEL_RUNTIME_EXECUTOR_EXECUTE_H

#include "tessel/runtime/program.h"

#include <optional>
#include <string>

namespace tessel::runtime {

/// Does what tessel_rt_execute does, but returns the message it would print
/// ("tessel: rank 0: error at mlp.mlir:3:5 in tessel.gather: ...") instead
/// of ending the job; nothing on success.
std::optional<std::string> tryExecute(tessel_context_t *context, void **site,
                                      const char *descriptor,
                                      void *const *operands,
                                      int32_t numOperands, void *result);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_EXECUTE_H
