//===- ParameterInit.cpp - Initialized parameter tensors ------------------===//

#include "reference/ParameterInit.h"

#include <cassert>

namespace tessel::ref {

Tensor initializeParameter(const TensorSpec &spec, InitKind kind, double scale,
                           uint64_t seed) {
  std::vector<int64_t> noOffsets(spec.dims.size(), 0);
  return initializeParameterBlock(spec, noOffsets, spec, kind, scale, seed);
}

Tensor initializeParameterBlock(const TensorSpec &fullSpec,
                                const std::vector<int64_t> &blockOffsets,
                                const TensorSpec &blockSpec, InitKind kind,
                                double scale, uint64_t seed) {
  assert(blockOffsets.size() == fullSpec.dims.size() &&
         blockSpec.rank() == fullSpec.rank() && "one offset per dim");
  std::vector<int64_t> fullStrides = rowMajorStrides(fullSpec.shape);
  // For each block dim, the stride of the same-named full dim, and the flat
  // full index of the block's first element.
  std::vector<int64_t> blockToFull(blockSpec.dims.size());
  std::vector<int> blockToFullDim(blockSpec.dims.size());
  for (size_t d = 0; d < blockSpec.dims.size(); ++d) {
    int fullDim = fullSpec.dimIndex(blockSpec.dims[d]);
    assert(fullDim >= 0 && "block dim missing from the parameter");
    assert(blockOffsets[fullDim] >= 0 && "block starts before the parameter");
    blockToFull[d] = fullStrides[fullDim];
    blockToFullDim[d] = fullDim;
  }
  int64_t base = 0;
  for (size_t d = 0; d < fullSpec.dims.size(); ++d)
    base += blockOffsets[d] * fullStrides[d];

  std::vector<double> values;
  values.reserve(blockSpec.numElements());
  forEachIndex(blockSpec.shape, [&](const std::vector<int64_t> &index) {
    int64_t flat = base;
    for (size_t d = 0; d < index.size(); ++d) {
      int fullDim = blockToFullDim[d];
      if (blockOffsets[fullDim] + index[d] >= fullSpec.shape[fullDim]) {
        values.push_back(0.0);
        return;
      }
      flat += index[d] * blockToFull[d];
    }
    values.push_back(
        initialValue(kind, scale, seed, static_cast<uint64_t>(flat)));
  });
  return Tensor(blockSpec, std::move(values));
}

Tensor initializeParameterShard(const layout::Mesh &mesh,
                                const layout::TensorLayout &layout,
                                int64_t rank, ElementType type, InitKind kind,
                                double scale, uint64_t seed) {
  TensorSpec fullSpec{layout.dims, layout.shape, type};
  TensorSpec blockSpec{layout.dims, layout::localShape(mesh, layout), type};
  return initializeParameterBlock(fullSpec,
                                  layout::shardOffset(mesh, layout, rank),
                                  blockSpec, kind, scale, seed);
}

} // namespace tessel::ref
