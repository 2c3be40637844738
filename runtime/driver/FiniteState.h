//===- FiniteState.h - Whether the trained state is finite ------*- C++ -*-===//
//
// A step checks its loss and gradient norm, but its update can still
// overflow (a learning rate of 1e308 times a finite gradient): the weights
// then turn infinite or NaN with every number the step returned finite.
// The next step's loss shows it, but after the last step nothing would, so
// the driver checks the state itself where it would keep it: before every
// checkpoint, after the last step, and when a step fails, to say whether
// the weights before it are worth keeping. The pipelined trainer, which
// writes no checkpoint, checks when a step fails and after the last step.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_DRIVER_FINITESTATE_H
#define TESSEL_RUNTIME_DRIVER_FINITESTATE_H

#include "driver/Checkpoint.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessel::driver {

/// The first NaN or infinite element of this rank's blocks of the
/// floating-point `tensors` (in host memory), described for a message:
/// "'w1' holds inf (element 3 of this rank's block)". nullopt when every
/// element is finite.
std::optional<std::string>
firstNonFiniteElement(const std::vector<StateTensor> &tensors);

/// What a step that is not finite is dropped or stopped for: "the loss is
/// inf" when `loss` is not finite, else "the gradient norm is nan" (NaN
/// without the sign bit fmt would give it).
std::string nonFiniteStep(double loss, std::optional<double> gradientNorm);

/// Collective over MPI_COMM_WORLD: true on every rank when the state in
/// `tensors` (this rank's blocks, in host memory) holds an element that is
/// not finite on some rank, which then prints "tessel: `when`: the trained
/// state is not finite: <the element> on rank R; an update overflowed (a
/// learning rate too large?); `then`" (what the driver does about it).
bool stateIsNotFinite(const std::vector<StateTensor> &tensors, int64_t rank,
                      const std::string &when, const std::string &then);

} // namespace tessel::driver

#endif // TESSEL_RUNTIME_DRIVER_FINITESTATE_H
