//===- FastReorder.h - cast and transpose on oneDNN -------------*- C++ -*-===//

#ifndef TESSEL_RUNTIME_EXECUTOR_FASTREORDER_H
#define TESSEL_RUNTIME_EXECUTOR_FASTREORDER_H

#include "executor/Op.h"

#include <optional>

namespace tessel::runtime {

/// cast's kernel between f32 and bf16 (either way, or to the same type) on
/// oneDNN's reorder, which rounds f32 to bf16 to nearest with ties to even
/// as the reference does; nothing for other types or a result whose dims
/// are not the operand's in its order. `reference` runs in a context
/// without oneDNN.
std::optional<Kernel> buildFastCast(const OpDescriptor &desc, Kernel reference);

/// transpose's kernel on oneDNN's reorder: the operand read through its
/// strides in the result's dim order. f32 or bf16 only.
std::optional<Kernel> buildFastTranspose(const OpDescriptor &desc,
                                         Kernel reference);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_EXECUTOR_FASTREORDER_H
