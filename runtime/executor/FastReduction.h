//===- FastReduction.h - reduce on oneDNN -----------------------*- C++ -*-===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTREDUCTION_H
#define TESSEL_RUNTIME_EXECUTOR_FASTREDUCTION_H

#include "executor/Op.h"

#include "evaluator/kernels/Reductions.h"

#include <optional>

namespace tessel::runtime {

/// reduce's kernel on oneDNN's reduction primitive, or nothing where it
/// does not apply: element types other than all f32 or all bf16, an empty
/// operand (whose reduction is the kind's identity), a result dim the
/// operand lacks. Max and min propagate NaN as oneDNN does, which the
/// reference's rule (any NaN wins) need not match. `reference` runs in a
/// context without oneDNN.
std::optional<Kernel> buildFastReduce(ref::ReductionKind kind,
                                      const OpDescriptor &desc,
                                      Kernel reference);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTREDUCTION_H
