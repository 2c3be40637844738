//===- FastReduction.cpp - reduce on oneDNN -------------------------------===//
//
// oneDNN reduces a tensor into one of the same rank with size 1 on every
// reduced dim. The result is seen that way: the operand's dims, each kept
// one with the result's stride for it, so a result that holds the kept
// dims in another order is written in place.
//
//===----------------------------------------------------------------------===//

#include "executor/FastReduction.h"

#include "executor/FastKernel.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/Reduction.h"
#endif

namespace tessel::runtime {

#ifdef TESSEL_RUNTIME_HAS_KERNELS

namespace {

ReductionAlgorithm algorithmOf(ref::ReductionKind kind) {
  switch (kind) {
  case ref::ReductionKind::Sum:
    return ReductionAlgorithm::Sum;
  case ref::ReductionKind::Mean:
    return ReductionAlgorithm::Mean;
  case ref::ReductionKind::Max:
    return ReductionAlgorithm::Max;
  case ref::ReductionKind::Min:
    return ReductionAlgorithm::Min;
  case ref::ReductionKind::Prod:
    return ReductionAlgorithm::Product;
  }
  return ReductionAlgorithm::Sum;
}

} // namespace

std::optional<Kernel> buildFastReduce(ref::ReductionKind kind,
                                      const OpDescriptor &desc,
                                      Kernel reference) {
  if (desc.operands.size() != 1)
    return std::nullopt;
  const TensorType &x = desc.operands[0], &y = desc.result;
  if (!allOfKernelType({&x, &y}) || x.rank() == 0 || x.numElements() == 0)
    return std::nullopt;
  for (const std::string &dim : y.dims)
    if (!hasDim(x, dim) || y.shape[y.dimIndex(dim, "the result")] !=
                               x.shape[x.dimIndex(dim, "operand 0")])
      return std::nullopt;
  StridedTensor source = StridedTensor::rowMajor(x.shape, kernelType(x));
  StridedTensor destination{{}, {}, kernelType(y)};
  for (size_t d = 0; d < x.dims.size(); ++d) {
    bool kept = hasDim(y, x.dims[d]);
    destination.dims.push_back(kept ? x.shape[d] : 1);
    // A reduced dim's stride is never used.
    destination.strides.push_back(kept ? strideOf(y, x.dims[d]) : 1);
  }
  return runPrepared(prepareReduction(algorithmOf(kind), source, destination),
                     std::move(reference));
}

#else

std::optional<Kernel> buildFastReduce(ref::ReductionKind, const OpDescriptor &,
                                      Kernel) {
  return std::nullopt;
}

#endif

} // namespace tessel::runtime
