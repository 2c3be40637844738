//===- Status.h - Status returns and the last error message -----*- C++ -*-===//
//
// Every entry point of the runtime returns a tessel_status_t and leaves a
// message describing a failure in a thread-local string, so that C callers
// (generated code) get a cheap integer to branch on and a person reading a
// failed job gets a sentence.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_BASE_STATUS_H
#define TESSEL_RUNTIME_BASE_STATUS_H

#include "tessel/runtime/types.h"

#include <fmt/format.h>

#include <string>

namespace tessel::runtime {

/// Records `message` as this thread's last error and returns `status`.
tessel_status_t fail(tessel_status_t status, std::string message);

/// fail() with a fmt-formatted message.
template <typename... Args>
tessel_status_t failf(tessel_status_t status,
                      fmt::format_string<Args...> format, Args &&...args) {
  return fail(status, fmt::format(format, std::forward<Args>(args)...));
}

} // namespace tessel::runtime

/// Returns from the enclosing function when `expr` is not OK; the callee has
/// already recorded the message.
#define TESSEL_RETURN_IF_ERROR(expr)                                           \
  do {                                                                         \
    tessel_status_t tesselStatus = (expr);                                     \
    if (tesselStatus != TESSEL_STATUS_OK)                                      \
      return tesselStatus;                                                     \
  } while (false)

#endif // TESSEL_RUNTIME_BASE_STATUS_H
