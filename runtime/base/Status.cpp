//===- Status.cpp - Status returns and the last error message -------------===//

#include "base/Status.h"

namespace tessel::runtime {

// One message per thread: a program that drives communicators from several
// threads must not see another thread's failure.
static thread_local std::string lastErrorMessage;

tessel_status_t fail(tessel_status_t status, std::string message) {
  lastErrorMessage = std::move(message);
  return status;
}

} // namespace tessel::runtime

extern "C" const char *tessel_last_error_message(void) {
  return tessel::runtime::lastErrorMessage.c_str();
}

extern "C" const char *tessel_status_name(tessel_status_t status) {
  switch (status) {
  case TESSEL_STATUS_OK:
    return "OK";
  case TESSEL_STATUS_INVALID_ARGUMENT:
    return "INVALID_ARGUMENT";
  case TESSEL_STATUS_FAILED_PRECONDITION:
    return "FAILED_PRECONDITION";
  case TESSEL_STATUS_MPI_ERROR:
    return "MPI_ERROR";
  case TESSEL_STATUS_RESOURCE_EXHAUSTED:
    return "RESOURCE_EXHAUSTED";
  case TESSEL_STATUS_UNIMPLEMENTED:
    return "UNIMPLEMENTED";
  case TESSEL_STATUS_INTERNAL:
    return "INTERNAL";
  }
  return "UNKNOWN_STATUS";
}
