//===- Normalization.cpp - Layer normalization on oneDNN ------------------===//

#include "kernels/Normalization.h"

#include "kernels/Primitives.h"

namespace tessel::runtime {

std::unique_ptr<PreparedKernel> prepareLayerNorm(const StridedTensor &data,
                                                 double epsilon) {
  if (!dnnlType(data.type) || numElements(data) == 0 || data.dims.size() < 2)
    return nullptr;
  return preparedOrNull({&data}, [&] {
    dnnl::memory::desc layout = userLayout(data);
    // Training, not inference: then the mean and variance are outputs that
    // the chain keeps in scratch buffers rather than inputs it must supply.
    dnnl::layer_normalization_forward::desc desc(
        dnnl::prop_kind::forward_training, layout, static_cast<float>(epsilon),
        dnnl::normalization_flags::none);
    dnnl::layer_normalization_forward::primitive_desc pd(
        desc, callerScratchpad(), cpuEngine());
    auto chain = std::make_unique<PrimitiveChain>();
    auto source = chain->addInput(layout, pd.src_desc());
    auto destination = chain->setOutput(layout, pd.dst_desc());
    auto mean = chain->addScratch(pd.mean_desc());
    auto variance = chain->addScratch(pd.variance_desc());
    chain->addStep(dnnl::layer_normalization_forward(pd),
                   {{DNNL_ARG_SRC, source},
                    {DNNL_ARG_DST, destination},
                    {DNNL_ARG_MEAN, mean},
                    {DNNL_ARG_VARIANCE, variance}});
    return chain;
  });
}

} // namespace tessel::runtime
