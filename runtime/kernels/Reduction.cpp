//===- Reduction.cpp - Sums, means, products, maxima and minima on oneDNN -===//

#include "kernels/Reduction.h"

#include "kernels/Primitives.h"

namespace tessel::runtime {

namespace {

dnnl::algorithm algorithmOf(ReductionAlgorithm algorithm) {
  switch (algorithm) {
  case ReductionAlgorithm::Sum:
    return dnnl::algorithm::reduction_sum;
  case ReductionAlgorithm::Mean:
    return dnnl::algorithm::reduction_mean;
  case ReductionAlgorithm::Max:
    return dnnl::algorithm::reduction_max;
  case ReductionAlgorithm::Min:
    return dnnl::algorithm::reduction_min;
  case ReductionAlgorithm::Product:
    return dnnl::algorithm::reduction_mul;
  }
  return dnnl::algorithm::reduction_sum;
}

} // namespace

std::unique_ptr<PreparedKernel>
prepareReduction(ReductionAlgorithm algorithm, const StridedTensor &source,
                 const StridedTensor &destination) {
  if (!dnnlType(source.type) || source.type != destination.type ||
      numElements(source) == 0 || source.dims.empty() ||
      source.dims.size() != destination.dims.size())
    return nullptr;
  return preparedOrNull([&] {
    dnnl::reduction::desc desc(algorithmOf(algorithm), userLayout(source),
                               anyLayout(destination), /*p=*/0.f,
                               /*eps=*/0.f);
    dnnl::reduction::primitive_desc pd(desc, cpuEngine());
    auto chain = std::make_unique<PrimitiveChain>();
    auto from = chain->addInput(userLayout(source), pd.src_desc());
    auto to = chain->setOutput(userLayout(destination), pd.dst_desc());
    chain->addStep(dnnl::reduction(pd),
                   {{DNNL_ARG_SRC, from}, {DNNL_ARG_DST, to}});
    return chain;
  });
}

} // namespace tessel::runtime
