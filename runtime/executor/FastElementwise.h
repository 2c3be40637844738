//===- FastElementwise.h - f32 element-wise ops without doubles -*- C++ -*-===//
//
// Unary and binary ops whose operands and result are all f32 run on
// oneDNN's eltwise and binary primitives where it has the op (not erf or
// pow) and, for binary ops, where the lhs is not broadcast or the op
// commutes. oneDNN computes in f32 with its own approximations of exp, log
// and the like, a few ulp from the reference, and NaN in max, min and relu
// follows oneDNN's instructions rather than the reference's rule. Log, erf
// and GELU (which oneDNN lacks or gets wrong in f32) run on SLEEF's vector
// functions, a few ulp from the reference (VectorMath.h). The others,
// and every op in a context without oneDNN, run on the buffers: each element
// computed in double with the reference kernels' own formula (ref::applyUnary /
// applyBinary) and rounded once to f32, which is exactly the reference's
// result, without converting whole tensors to and from doubles.
//
// Comparisons of f32 operands into i1 run on oneDNN's binary primitive
// where its NaN rule is the dialect's, on the buffers otherwise; select
// (which oneDNN lacks) on the buffers.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTELEMENTWISE_H
#define TESSEL_RUNTIME_EXECUTOR_FASTELEMENTWISE_H

#include "executor/Op.h"

#include "reference/Elementwise.h"

#include <optional>

namespace tessel::runtime {

/// The kernel of a unary op on f32, or nothing for other types.
std::optional<Kernel> buildFastUnary(ref::UnaryKind kind,
                                     const OpDescriptor &desc);

/// The kernel of a binary op (broadcasting by name) on f32, or nothing.
std::optional<Kernel> buildFastBinary(ref::BinaryKind kind,
                                      const OpDescriptor &desc);

/// The kernel of a comparison of two f32 operands (broadcasting by name)
/// into an i1 result, or nothing for other types.
std::optional<Kernel> buildFastCompare(ref::CompareKind kind,
                                       const OpDescriptor &desc);

/// The kernel of select(cond, a, b) with an i1 condition and f32 values,
/// each broadcast by name, as a loop over the buffers (oneDNN has no
/// select); nothing for other types.
std::optional<Kernel> buildFastSelect(const OpDescriptor &desc);

/// The unary op on oneDNN's eltwise primitive, all f32 or all bf16, with
/// `fallback` in a context without oneDNN; nothing where oneDNN does not
/// apply.
std::optional<Kernel> buildOneDnnUnary(ref::UnaryKind kind,
                                       const OpDescriptor &desc,
                                       Kernel fallback);

/// The binary op on oneDNN's binary primitive, all f32 or all bf16, with
/// `fallback` in a context without oneDNN; nothing where oneDNN does not
/// apply.
std::optional<Kernel> buildOneDnnBinary(ref::BinaryKind kind,
                                        const OpDescriptor &desc,
                                        Kernel fallback);

/// The comparison on oneDNN's binary primitive, with `fallback` in a
/// context without oneDNN; nothing where oneDNN does not apply or would
/// treat NaN otherwise than the dialect.
std::optional<Kernel> buildOneDnnCompare(ref::CompareKind kind,
                                         const OpDescriptor &desc,
                                         Kernel fallback);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTELEMENTWISE_H
