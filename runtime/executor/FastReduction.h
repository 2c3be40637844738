//===- FastReduction.h - reduce on loops of f32, or on oneDNN ---*- C++ -*-===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTREDUCTION_H
#define TESSEL_RUNTIME_EXECUTOR_FASTREDUCTION_H

#include "executor/Op.h"

#include "reference/Reductions.h"

#include <optional>

namespace tessel::runtime {

/// reduce's kernel: loops in f32 (accumulating in f32, max and min letting
/// any NaN win as the reference does) for an f32 operand and result, or
/// oneDNN's reduction primitive for bf16; nothing where neither applies:
/// other element types, an empty bf16 operand (whose reduction is the
/// kind's identity), a result dim the operand lacks. On oneDNN, max and
/// min propagate NaN as oneDNN does, which the reference's rule need not
/// match. `reference` runs in a context without oneDNN.
std::optional<Kernel> buildFastReduce(ref::ReductionKind kind,
                                      const OpDescriptor &desc,
                                      Kernel reference);

/// reduce's kernel for an operand and result of one element type among
/// f32, f64, i1, i32 and i64 (used for all but f32): a loop in double in
/// the reference's order, which gives the reference's result; nothing for
/// other types or a result dim the operand lacks.
std::optional<Kernel> buildTypedReduce(ref::ReductionKind kind,
                                       const OpDescriptor &desc);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTREDUCTION_H
