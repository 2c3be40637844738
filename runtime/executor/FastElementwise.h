//===- FastElementwise.h - f32 element-wise ops without doubles -*- C++ -*-===//
//
// Unary and binary ops whose operands and result are all f32 run directly on
// the buffers: each element computed in double with the reference kernels'
// own formula (ref::applyUnary / applyBinary) and rounded once to f32, so
// the result is the reference's, without converting whole tensors to and
// from doubles.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTELEMENTWISE_H
#define TESSEL_RUNTIME_EXECUTOR_FASTELEMENTWISE_H

#include "executor/Op.h"

#include "evaluator/kernels/Elementwise.h"

#include <optional>

namespace tessel::runtime {

/// The kernel of a unary op on f32, or nothing for other types.
std::optional<Kernel> buildFastUnary(ref::UnaryKind kind,
                                     const OpDescriptor &desc);

/// The kernel of a binary op (broadcasting by name) on f32, or nothing.
std::optional<Kernel> buildFastBinary(ref::BinaryKind kind,
                                      const OpDescriptor &desc);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTELEMENTWISE_H
