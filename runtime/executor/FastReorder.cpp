//===- FastReorder.cpp - cast and transpose on oneDNN ---------------------===//

#include "executor/FastReorder.h"

#include "executor/FastKernel.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/Reorder.h"
#endif

namespace tessel::runtime {

#ifdef TESSEL_RUNTIME_HAS_KERNELS

namespace {

/// Reorders (casts and copies) run in f32 and bf16 on every CPU, unlike the
/// computing kernels (allOfKernelType).
bool isKernelType(const TensorType &type) {
  return type.type == ref::ElementType::F32 ||
         type.type == ref::ElementType::BF16;
}

} // namespace

std::optional<Kernel> buildFastCast(const OpDescriptor &desc,
                                    Kernel reference) {
  if (desc.operands.size() != 1)
    return std::nullopt;
  const TensorType &x = desc.operands[0], &y = desc.result;
  if (!isKernelType(x) || !isKernelType(y) || x.dims != y.dims ||
      x.shape != y.shape)
    return std::nullopt;
  return runPrepared(
      prepareReorder(StridedTensor::rowMajor(x.shape, kernelType(x)),
                     StridedTensor::rowMajor(y.shape, kernelType(y))),
      std::move(reference));
}

std::optional<Kernel> buildFastTranspose(const OpDescriptor &desc,
                                         Kernel reference) {
  if (desc.operands.size() != 1)
    return std::nullopt;
  const TensorType &x = desc.operands[0], &y = desc.result;
  if (!allOfKernelType({&x, &y}) || x.rank() != y.rank())
    return std::nullopt;
  StridedTensor source{y.shape, {}, kernelType(x)};
  for (size_t d = 0; d < y.dims.size(); ++d) {
    if (!hasDim(x, y.dims[d]) ||
        x.shape[x.dimIndex(y.dims[d], "operand 0")] != y.shape[d])
      return std::nullopt;
    source.strides.push_back(strideOf(x, y.dims[d]));
  }
  return runPrepared(
      prepareReorder(source, StridedTensor::rowMajor(y.shape, kernelType(y))),
      std::move(reference));
}

#else

std::optional<Kernel> buildFastCast(const OpDescriptor &, Kernel) {
  return std::nullopt;
}

std::optional<Kernel> buildFastTranspose(const OpDescriptor &, Kernel) {
  return std::nullopt;
}

#endif

} // namespace tessel::runtime
