//===- Agreement.h - Failing on every rank together -------------*- C++ -*-===//
//
// A rank that leaves while others wait in a collective hangs the job, so the
// driver's start-up errors (options, data, checkpoints) are agreed on: if
// any rank failed, every rank stops, and one message is printed, not one per
// rank.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_AGREEMENT_H
#define TESSEL_RUNTIME_DRIVER_AGREEMENT_H

#include <cstdint>
#include <optional>
#include <string>

namespace tessel::driver {

/// Collective over MPI_COMM_WORLD. Returns true on every rank when any rank
/// passed an error; the lowest such rank prints its message, prefixed with
/// "tessel: ", to stderr.
bool anyRankFailed(int64_t rank, const std::optional<std::string> &error);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_AGREEMENT_H
