//===- Reduction.cpp - Sums, means, products, maxima and minima on oneDNN -===//

#include "kernels/Reduction.h"

#include "kernels/Primitives.h"

#include <optional>

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

/// The source with its innermost run of reduced dims (and the size-1 dims
/// among them) reduced to size 1, dense: the first step of a reduction.
StridedTensor innerReduction(const StridedTensor &source,
                             const StridedTensor &destination) {
  std::vector<int64_t> dims = source.dims;
  for (size_t d = dims.size(); d-- > 0;) {
    if (dims[d] == 1)
      continue;
    if (destination.dims[d] != 1)
      break;
    dims[d] = 1;
  }
  return StridedTensor::rowMajor(dims, source.type);
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
    dnnl::algorithm kind = algorithmOf(algorithm);
    auto chain = std::make_unique<PrimitiveChain>();
    dnnl::memory::desc sourceLayout = userLayout(source);
    std::optional<PrimitiveChain::Slot> from;
    // The innermost reduced dims first, into a scratch tensor, when others
    // remain: oneDNN's JIT reduction takes a trailing block of reduced dims
    // and its reference kernel the rest, which is a hundred times slower
    // on a bias gradient ([batch, c, h, w] -> [c]). Every kind is its own
    // reduction of partial results (a mean of equal-sized means included).
    StridedTensor inner = innerReduction(source, destination);
    if (inner.dims != source.dims && inner.dims != destination.dims) {
      dnnl::reduction::primitive_desc pd(
          dnnl::reduction::desc(kind, sourceLayout, anyLayout(inner),
                                /*p=*/0.f, /*eps=*/0.f),
          cpuEngine());
      auto input = chain->addInput(sourceLayout, pd.src_desc());
      from = chain->addScratch(pd.dst_desc());
      chain->addStep(dnnl::reduction(pd),
                     {{DNNL_ARG_SRC, input}, {DNNL_ARG_DST, *from}});
      sourceLayout = pd.dst_desc();
    }
    dnnl::reduction::primitive_desc pd(
        dnnl::reduction::desc(kind, sourceLayout, anyLayout(destination),
                              /*p=*/0.f, /*eps=*/0.f),
        cpuEngine());
    if (!from)
      from = chain->addInput(sourceLayout, pd.src_desc());
    auto to = chain->setOutput(userLayout(destination), pd.dst_desc());
    chain->addStep(dnnl::reduction(pd),
                   {{DNNL_ARG_SRC, *from}, {DNNL_ARG_DST, to}});
    return chain;
  });
}

} // namespace tessel::runtime
