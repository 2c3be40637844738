//===- FastElementwise.h - f32 element-wise ops without doubles -*- C++ -*-===//
//
// Unary and binary ops whose operands and result are all f32 run on
// oneDNN's eltwise and binary primitives where it has the op (not erf or
// pow) and, for binary ops, where the lhs is not broadcast or the op
// commutes. oneDNN computes in f32 with its own approximations of exp, log
// and the like, a few ulp from the reference. The others, and every op in a
// context without oneDNN, run on the buffers: each element computed in
// double with the reference kernels' own formula (ref::applyUnary /
// applyBinary) and rounded once to f32, which is exactly the reference's
// result, without converting whole tensors to and from doubles.
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

/// The unary op on oneDNN's eltwise primitive, with `fallback` in a context
/// without oneDNN; nothing where oneDNN does not apply.
std::optional<Kernel> buildOneDnnUnary(ref::UnaryKind kind,
                                       const OpDescriptor &desc,
                                       Kernel fallback);

/// The binary op on oneDNN's binary primitive, with `fallback` in a context
/// without oneDNN; nothing where oneDNN does not apply.
std::optional<Kernel> buildOneDnnBinary(ref::BinaryKind kind,
                                        const OpDescriptor &desc,
                                        Kernel fallback);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTELEMENTWISE_H
