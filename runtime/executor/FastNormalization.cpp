//===- FastNormalization.cpp - layer_norm on oneDNN -----------------------===//
//
// The operand is seen as a matrix [others, normalized]: the normalized dims
// must be its innermost ones, in any order among themselves, so that each
// row of the matrix is one normalized fiber.
//
//===----------------------------------------------------------------------===//

#include "executor/FastNormalization.h"

#include "executor/FastKernel.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/Normalization.h"
#endif

#include <algorithm>
#include <set>

namespace tessel::runtime {

#ifdef TESSEL_RUNTIME_HAS_KERNELS

std::optional<Kernel> buildFastLayerNorm(const OpDescriptor &desc,
                                         const std::vector<std::string> &dims,
                                         double epsilon, Kernel reference) {
  if (desc.operands.size() != 1)
    return std::nullopt;
  const TensorType &x = desc.operands[0];
  std::set<std::string> normalized(dims.begin(), dims.end());
  if (!allOfKernelType({&x, &desc.result}) || x.dims != desc.result.dims ||
      normalized.empty() || normalized.size() != dims.size() ||
      normalized.size() > x.dims.size())
    return std::nullopt;
  size_t firstNormalized = x.dims.size() - normalized.size();
  int64_t rows = 1, columns = 1;
  for (size_t d = 0; d < x.dims.size(); ++d) {
    bool isNormalized = normalized.count(x.dims[d]) != 0;
    if (isNormalized != (d >= firstNormalized))
      return std::nullopt;
    (isNormalized ? columns : rows) *= x.shape[d];
  }
  StridedTensor matrix =
      StridedTensor::rowMajor({rows, columns}, kernelType(x));
  return runPrepared(prepareLayerNorm(matrix, epsilon), std::move(reference));
}

#else

std::optional<Kernel> buildFastLayerNorm(const OpDescriptor &,
                                         const std::vector<std::string> &,
                                         double, Kernel) {
  return std::nullopt;
}

#endif

} // namespace tessel::runtime
