//===- ParameterInit.h - Initialized parameter tensors ----------*- C++ -*-===//

#ifndef TESSEL_EVALUATOR_KERNELS_PARAMETERINIT_H
#define TESSEL_EVALUATOR_KERNELS_PARAMETERINIT_H

#include "evaluator/kernels/Initializers.h"
#include "evaluator/kernels/Tensor.h"

namespace tessel::ref {

/// The full parameter described by `spec`: element i (row-major) holds
/// initialValue(kind, scale, seed, i) rounded to the type.
Tensor initializeParameter(const TensorSpec &spec, InitKind kind, double scale,
                           uint64_t seed);

/// One block (e.g. a device's shard) of the parameter `fullSpec`: the block
/// has the dims of `blockSpec` (the same names as fullSpec, in any order),
/// starting at `blockOffsets` (per dim of fullSpec) in the full parameter.
/// Each element gets the value of its flat index in the full parameter, so
/// every block equals the matching slice of initializeParameter(fullSpec).
Tensor initializeParameterBlock(const TensorSpec &fullSpec,
                                const std::vector<int64_t> &blockOffsets,
                                const TensorSpec &blockSpec, InitKind kind,
                                double scale, uint64_t seed);

} // namespace tessel::ref

#endif // TESSEL_EVALUATOR_KERNELS_PARAMETERINIT_H
