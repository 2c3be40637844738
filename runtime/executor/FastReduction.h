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

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTREDUCTION_H
