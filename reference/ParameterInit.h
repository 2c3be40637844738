//===- ParameterInit.h - Initialized parameter tensors ----------*- C++ -*-===//

#ifndef TESSEL_REFERENCE_PARAMETERINIT_H
#define TESSEL_REFERENCE_PARAMETERINIT_H

#include "reference/Initializers.h"
#include "reference/Tensor.h"
#include "layouts/Sharding.h"

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
/// Positions past the end of a dimension (the padding of an uneven split)
/// hold zeros.
Tensor initializeParameterBlock(const TensorSpec &fullSpec,
                                const std::vector<int64_t> &blockOffsets,
                                const TensorSpec &blockSpec, InitKind kind,
                                double scale, uint64_t seed);

/// The block `rank` holds of the parameter `layout` describes on `mesh`
/// (global sizes, and the axes splitting each dimension): blocks of
/// ceil(n / g) along a dimension split g ways, zero-padded past its end.
/// Equals shardSlice of initializeParameter along every split dimension.
Tensor initializeParameterShard(const layout::Mesh &mesh,
                                const layout::TensorLayout &layout,
                                int64_t rank, ElementType type, InitKind kind,
                                double scale, uint64_t seed);

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_PARAMETERINIT_H
