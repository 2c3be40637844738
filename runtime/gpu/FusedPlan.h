//===- FusedPlan.h - A fused op's body as a GPU program ---------*- C++ -*-===//
//
// The host's half of the GPU's fused kernel: a `tessel.fused` descriptor's
// body, checked as the CPU's fused kernel checks it, becomes the program
// FusedBody.h interprets per element. Worked out once per call site.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_FUSEDPLAN_H
#define TESSEL_RUNTIME_GPU_FUSEDPLAN_H

#include "gpu/FusedBody.h"

#include "executor/Descriptor.h"

#include <optional>

namespace tessel::runtime::gpu {

/// The program of a `tessel.fused` descriptor; none when it exceeds
/// FusedCode's limits (operands, instructions, registers, constants) or
/// its result's walk keeps more than kMaxDims dims once merged, and the op
/// runs on the host. OpError for a malformed body, with the CPU kernel's
/// message.
std::optional<FusedCode> planFused(const OpDescriptor &desc);

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_FUSEDPLAN_H
