//===- TypedElementwise.h - Element-wise ops of other types -----*- C++ -*-===//
//
// The fast element-wise paths (FastElementwise.h) take f32, and oneDNN
// bf16; ops on the other element types ran on the reference kernels, which
// convert whole tensors to doubles and find each element's operands by
// name, a hundred times the work of the op. Training steps have such ops
// on every step: AdamW's bias corrections are f64 scalars, a causal mask
// compares i32 indices from iota, a vocabulary split over ranks subtracts,
// compares and selects i32 ids. These run them as loops over the buffers
// in their own C++ types (f32, f64, i1, i32, i64): each element is computed
// in double with the reference's own formula (ref::applyUnary,
// ref::applyBinary, the comparisons) and rounded once with
// ref::roundToType, which is the reference's result exactly.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_EXECUTOR_TYPEDELEMENTWISE_H
#define TESSEL_RUNTIME_EXECUTOR_TYPEDELEMENTWISE_H

#include "executor/Op.h"

#include "reference/Elementwise.h"

#include <optional>
#include <string>

namespace tessel::runtime {

/// A unary op whose operand and result have one element type and the same
/// dims in the same order; nothing otherwise or for f16 and bf16.
std::optional<Kernel> buildTypedUnary(ref::UnaryKind kind,
                                      const OpDescriptor &desc);

/// A binary op, broadcasting by name, with both operands and the result of
/// one element type; nothing otherwise or for f16 and bf16.
std::optional<Kernel> buildTypedBinary(ref::BinaryKind kind,
                                       const OpDescriptor &desc);

/// A comparison of two operands of one element type into i1, broadcasting
/// by name; nothing otherwise or for f16 and bf16.
std::optional<Kernel> buildTypedCompare(ref::CompareKind kind,
                                        const OpDescriptor &desc);

/// select(cond, a, b) with an i1 condition and a, b and the result of one
/// element type, broadcasting by name; nothing otherwise.
std::optional<Kernel> buildTypedSelect(const OpDescriptor &desc);

/// A cast between any two of f32, f64, i1, i32 and i64, the operand's dims
/// in the result's order; nothing otherwise.
std::optional<Kernel> buildTypedCast(const OpDescriptor &desc);

/// iota along `dim` into f32, f64, i1, i32 or i64; nothing otherwise.
std::optional<Kernel> buildTypedIota(const OpDescriptor &desc,
                                     const std::string &dim);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_TYPEDELEMENTWISE_H
