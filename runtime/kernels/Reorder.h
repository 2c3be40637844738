//===- Reorder.h - Layout and type copies on oneDNN -------------*- C++ -*-===//
//
// A tensor copied into another layout of the same dims (a transposition),
// another element type (f32 to bf16 rounds to nearest, ties to even; bf16
// to f32 is exact), or both: oneDNN's reorder primitive.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_KERNELS_REORDER_H
#define TESSEL_RUNTIME_KERNELS_REORDER_H

#include "kernels/PreparedKernel.h"

#include <memory>

namespace tessel::runtime {

/// inputs {source}, output destination: the same dims, any strides and
/// types. Null where oneDNN has no kernel (a type it does not compute in,
/// an empty tensor).
std::unique_ptr<PreparedKernel>
prepareReorder(const StridedTensor &source, const StridedTensor &destination);

} // namespace tessel::runtime

#endif // TESSEL_RUNTIME_KERNELS_REORDER_H
