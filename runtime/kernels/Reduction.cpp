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

/// The tensor with its dims in `order`: the same buffer seen through
/// permuted dims.
StridedTensor permuted(const StridedTensor &tensor,
                       const std::vector<size_t> &order) {
  StridedTensor view{{}, {}, tensor.type};
  for (size_t d : order) {
    view.dims.push_back(tensor.dims[d]);
    view.strides.push_back(tensor.strides[d]);
  }
  return view;
}

dnnl::reduction::primitive_desc reductionDesc(dnnl::algorithm kind,
                                              const dnnl::memory::desc &from,
                                              const dnnl::memory::desc &to) {
  return {dnnl::reduction::desc(kind, from, to, /*p=*/0.f, /*eps=*/0.f),
          callerScratchpad(), cpuEngine()};
}

/// Two reductions: the innermost run of reduced dims into a scratch tensor,
/// then the others from there. Every kind is its own reduction of partial
/// results (a mean of equal-sized means included).
std::unique_ptr<PreparedKernel> innerFirst(dnnl::algorithm kind,
                                           const StridedTensor &source,
                                           const StridedTensor &inner,
                                           const StridedTensor &destination) {
  auto chain = std::make_unique<PrimitiveChain>();
  auto first = reductionDesc(kind, userLayout(source), anyLayout(inner));
  auto input = chain->addInput(userLayout(source), first.src_desc());
  auto partial = chain->addScratch(first.dst_desc());
  chain->addStep(dnnl::reduction(first),
                 {{DNNL_ARG_SRC, input}, {DNNL_ARG_DST, partial}});
  auto second = reductionDesc(kind, first.dst_desc(), anyLayout(destination));
  auto output = chain->setOutput(userLayout(destination), second.dst_desc());
  chain->addStep(dnnl::reduction(second),
                 {{DNNL_ARG_SRC, partial}, {DNNL_ARG_DST, output}});
  return chain;
}

/// One reduction over the tensors seen with the kept dims first and the
/// reduced ones last; the input's reorder into that order, where it is not
/// the source's, is a transposition.
std::unique_ptr<PreparedKernel> reducedLast(dnnl::algorithm kind,
                                            const StridedTensor &source,
                                            const StridedTensor &destination) {
  std::vector<size_t> order;
  for (bool reduced : {false, true})
    for (size_t d = 0; d < source.dims.size(); ++d)
      if ((destination.dims[d] == 1 && source.dims[d] != 1) == reduced)
        order.push_back(d);
  StridedTensor from = permuted(source, order);
  StridedTensor to = permuted(destination, order);
  auto pd = reductionDesc(
      kind, userLayout(StridedTensor::rowMajor(from.dims, from.type)),
      anyLayout(to));
  auto chain = std::make_unique<PrimitiveChain>();
  auto input = chain->addInput(userLayout(from), pd.src_desc());
  auto output = chain->setOutput(userLayout(to), pd.dst_desc());
  chain->addStep(dnnl::reduction(pd),
                 {{DNNL_ARG_SRC, input}, {DNNL_ARG_DST, output}});
  return chain;
}

} // namespace

// oneDNN's JIT reduction takes a trailing block of reduced dims in a dense
// tensor and its reference kernel everything else, a hundred times slower
// on a bias gradient ([batch, c, h, w] -> [c], or [batch, hidden] ->
// [hidden]). So a reduction whose innermost dims are reduced takes those
// first, and one whose innermost dim is kept has its reduced dims moved to
// the end.
std::unique_ptr<PreparedKernel>
prepareReduction(ReductionAlgorithm algorithm, const StridedTensor &source,
                 const StridedTensor &destination) {
  if (!dnnlType(source.type) || source.type != destination.type ||
      numElements(source) == 0 || source.dims.empty() ||
      source.dims.size() != destination.dims.size())
    return nullptr;
  return preparedOrNull(
      {&source, &destination}, [&]() -> std::unique_ptr<PreparedKernel> {
        dnnl::algorithm kind = algorithmOf(algorithm);
        StridedTensor inner = innerReduction(source, destination);
        if (inner.dims != source.dims && inner.dims != destination.dims)
          return innerFirst(kind, source, inner, destination);
        return reducedLast(kind, source, destination);
      });
}

} // namespace tessel::runtime
