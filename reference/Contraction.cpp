//===- Contraction.cpp - Reference einsum kernel --------------------------===//

#include "reference/Contraction.h"

#include <cassert>

namespace tessel::ref {

Tensor einsum(const std::vector<Tensor> &inputs, const TensorSpec &resultSpec) {
  assert(!inputs.empty() && "einsum needs at least one input");
  // The iteration space is the result dimensions followed by the contracted
  // ones, in order of first appearance, so the result offset is simply the
  // row-major position of the leading part of the index.
  std::vector<std::string> loopDims = resultSpec.dims;
  std::vector<int64_t> loopShape = resultSpec.shape;
  for (const Tensor &input : inputs) {
    for (int d = 0; d < input.rank(); ++d) {
      const std::string &name = input.spec.dims[d];
      bool known = false;
      for (const std::string &existing : loopDims)
        known |= existing == name;
      if (!known) {
        loopDims.push_back(name);
        loopShape.push_back(input.spec.shape[d]);
      }
    }
  }

  std::vector<NamedIndexMap> inputMaps;
  inputMaps.reserve(inputs.size());
  for (const Tensor &input : inputs)
    inputMaps.emplace_back(loopDims, loopShape, input.spec);
  TensorSpec accumulatorSpec = resultSpec;
  accumulatorSpec.type = ElementType::F64;
  NamedIndexMap resultMap(loopDims, loopShape, accumulatorSpec);

  std::vector<double> sums(resultSpec.numElements(), 0.0);
  forEachIndex(loopShape, [&](const std::vector<int64_t> &index) {
    double product = 1.0;
    for (size_t i = 0; i < inputs.size(); ++i)
      product *= inputs[i].data[inputMaps[i].offset(index)];
    sums[resultMap.offset(index)] += product;
  });
  return Tensor(resultSpec, std::move(sums));
}

} // namespace tessel::ref
