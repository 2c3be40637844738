//===- Softmax.cpp - Softmax and log-softmax over one dim on oneDNN -------===//

#include "kernels/Softmax.h"

#include "kernels/Primitives.h"

namespace tessel::runtime {

std::unique_ptr<PreparedKernel> prepareSoftmax(const StridedTensor &data,
                                               int axis) {
  if (!dnnlType(data.type) || numElements(data) == 0 || axis < 0 ||
      axis >= static_cast<int>(data.dims.size()))
    return nullptr;
  return preparedOrNull({&data}, [&] {
    dnnl::memory::desc layout = userLayout(data);
    dnnl::softmax_v2_forward::desc desc(dnnl::prop_kind::forward_inference,
                                        dnnl::algorithm::softmax_accurate,
                                        layout, layout, axis);
    dnnl::softmax_v2_forward::primitive_desc pd(desc, callerScratchpad(),
                                                cpuEngine());
    auto chain = std::make_unique<PrimitiveChain>();
    auto source = chain->addInput(layout, pd.src_desc());
    auto destination = chain->setOutput(layout, pd.dst_desc());
    chain->addStep(dnnl::softmax_v2_forward(pd),
                   {{DNNL_ARG_SRC, source}, {DNNL_ARG_DST, destination}});
    return chain;
  });
}

} // namespace tessel::runtime
