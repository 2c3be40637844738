//===- Reorder.cpp - Copies between layouts and float types on oneDNN -----===//

#include "kernels/Reorder.h"

#include "kernels/Primitives.h"

namespace tessel::runtime {

std::unique_ptr<PreparedKernel>
prepareReorder(const StridedTensor &source, const StridedTensor &destination) {
  if (!dnnlType(source.type) || !dnnlType(destination.type) ||
      source.dims != destination.dims || source.dims.empty() ||
      numElements(source) == 0)
    return nullptr;
  return preparedOrNull({&source, &destination}, [&] {
    // The chain's input is the source in its own layout and its output the
    // destination in its own: the reorder primitive is the one step.
    dnnl::memory::desc from = userLayout(source), to = userLayout(destination);
    auto chain = std::make_unique<PrimitiveChain>();
    auto input = chain->addInput(from, from);
    auto output = chain->setOutput(to, to);
    chain->addStep(dnnl::reorder(dnnl::reorder::primitive_desc(
                       cpuEngine(), from, cpuEngine(), to, callerScratchpad())),
                   {{DNNL_ARG_FROM, input}, {DNNL_ARG_TO, output}});
    return chain;
  });
}

} // namespace tessel::runtime
