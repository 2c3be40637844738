//===- FastSoftmax.cpp - softmax on oneDNN --------------------------------===//

#include "executor/FastSoftmax.h"

#include "executor/FastKernel.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/Softmax.h"
#endif

namespace tessel::runtime {

#ifdef TESSEL_RUNTIME_HAS_KERNELS

std::optional<Kernel> buildFastSoftmax(const OpDescriptor &desc,
                                       const std::string &dim,
                                       Kernel reference) {
  if (desc.operands.size() != 1)
    return std::nullopt;
  const TensorType &x = desc.operands[0];
  if (!allOfKernelType({&x, &desc.result}) || x.dims != desc.result.dims ||
      !hasDim(x, dim))
    return std::nullopt;
  StridedTensor data = StridedTensor::rowMajor(x.shape, kernelType(x));
  return runPrepared(prepareSoftmax(data, x.dimIndex(dim, "operand 0")),
                     std::move(reference));
}

#else

std::optional<Kernel> buildFastSoftmax(const OpDescriptor &,
                                       const std::string &, Kernel) {
  return std::nullopt;
}

#endif

} // namespace tessel::runtime
