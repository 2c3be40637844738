//===- Fatal.h - Ending the job on an error ---------------------*- C++ -*-===//
//
// A failed op cannot be reported back to generated code that has no error
// paths, and a rank that returned while others wait in a collective would
// hang the job; so an error ends the whole job at once.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FATAL_H
#define TESSEL_RUNTIME_EXECUTOR_FATAL_H

#include <string>

namespace tessel::runtime {

/// Prints `message` and a newline to stderr, then ends every rank with
/// MPI_Abort (exit status 1), or just this process when MPI is not running.
[[noreturn]] void fatalError(const std::string &message);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FATAL_H
