//===- Convolution.cpp - 2-D convolution and its gradients on oneDNN ------===//
//
// Each pass is one oneDNN primitive. The backward primitives need the
// forward primitive descriptor as a hint, so every pass first describes the
// forward convolution of the same shape.
//
//===----------------------------------------------------------------------===//

#include "kernels/Convolution.h"

#include "kernels/Primitives.h"

namespace tessel::runtime {

namespace {

using dnnl::memory;

bool isSupported(const ConvolutionShape &shape) {
  // Grouped weights are [G, O/G, C/G, KH, KW].
  for (const StridedTensor *tensor :
       {&shape.source, &shape.weights, &shape.destination})
    if ((tensor->dims.size() != 4 &&
         !(tensor == &shape.weights && tensor->dims.size() == 5)) ||
        numElements(*tensor) == 0 || tensor->type != shape.source.type)
      return false;
  if (!dnnlType(shape.source.type))
    return false;
  for (int s = 0; s < 2; ++s)
    if (shape.strides[s] < 1 || shape.dilations[s] < 1 ||
        shape.paddingLow[s] < 0 || shape.paddingHigh[s] < 0)
      return false;
  return true;
}

memory::dims dims(const std::array<int64_t, 2> &values, int64_t minus = 0) {
  return {values[0] - minus, values[1] - minus};
}

dnnl::convolution_forward::primitive_desc
forwardDesc(const ConvolutionShape &shape, dnnl::prop_kind kind) {
  dnnl::convolution_forward::desc desc(
      kind, dnnl::algorithm::convolution_direct, anyLayout(shape.source),
      anyLayout(shape.weights), anyLayout(shape.destination),
      dims(shape.strides), dims(shape.dilations, 1), dims(shape.paddingLow),
      dims(shape.paddingHigh));
  return {desc, callerScratchpad(), cpuEngine()};
}

std::unique_ptr<PreparedKernel> forward(const ConvolutionShape &shape) {
  auto pd = forwardDesc(shape, dnnl::prop_kind::forward_inference);
  auto chain = std::make_unique<PrimitiveChain>();
  auto source = chain->addInput(userLayout(shape.source), pd.src_desc());
  auto weights = chain->addInput(userLayout(shape.weights), pd.weights_desc());
  auto destination =
      chain->setOutput(userLayout(shape.destination), pd.dst_desc());
  chain->addStep(dnnl::convolution_forward(pd), {{DNNL_ARG_SRC, source},
                                                 {DNNL_ARG_WEIGHTS, weights},
                                                 {DNNL_ARG_DST, destination}});
  return chain;
}

std::unique_ptr<PreparedKernel> backwardData(const ConvolutionShape &shape) {
  auto hint = forwardDesc(shape, dnnl::prop_kind::forward_training);
  dnnl::convolution_backward_data::desc desc(
      dnnl::algorithm::convolution_direct, anyLayout(shape.source),
      anyLayout(shape.weights), anyLayout(shape.destination),
      dims(shape.strides), dims(shape.dilations, 1), dims(shape.paddingLow),
      dims(shape.paddingHigh));
  dnnl::convolution_backward_data::primitive_desc pd(desc, callerScratchpad(),
                                                     cpuEngine(), hint);
  auto chain = std::make_unique<PrimitiveChain>();
  auto destinationGradient =
      chain->addInput(userLayout(shape.destination), pd.diff_dst_desc());
  auto weights = chain->addInput(userLayout(shape.weights), pd.weights_desc());
  auto sourceGradient =
      chain->setOutput(userLayout(shape.source), pd.diff_src_desc());
  chain->addStep(dnnl::convolution_backward_data(pd),
                 {{DNNL_ARG_DIFF_DST, destinationGradient},
                  {DNNL_ARG_WEIGHTS, weights},
                  {DNNL_ARG_DIFF_SRC, sourceGradient}});
  return chain;
}

std::unique_ptr<PreparedKernel> backwardWeights(const ConvolutionShape &shape) {
  auto hint = forwardDesc(shape, dnnl::prop_kind::forward_training);
  dnnl::convolution_backward_weights::desc desc(
      dnnl::algorithm::convolution_direct, anyLayout(shape.source),
      anyLayout(shape.weights), anyLayout(shape.destination),
      dims(shape.strides), dims(shape.dilations, 1), dims(shape.paddingLow),
      dims(shape.paddingHigh));
  dnnl::convolution_backward_weights::primitive_desc pd(
      desc, callerScratchpad(), cpuEngine(), hint);
  auto chain = std::make_unique<PrimitiveChain>();
  auto source = chain->addInput(userLayout(shape.source), pd.src_desc());
  auto destinationGradient =
      chain->addInput(userLayout(shape.destination), pd.diff_dst_desc());
  auto weightsGradient =
      chain->setOutput(userLayout(shape.weights), pd.diff_weights_desc());
  chain->addStep(dnnl::convolution_backward_weights(pd),
                 {{DNNL_ARG_SRC, source},
                  {DNNL_ARG_DIFF_DST, destinationGradient},
                  {DNNL_ARG_DIFF_WEIGHTS, weightsGradient}});
  return chain;
}

} // namespace

std::unique_ptr<PreparedKernel>
prepareConvolution(ConvolutionPass pass, const ConvolutionShape &shape) {
  if (!isSupported(shape))
    return nullptr;
  return preparedOrNull({&shape.source, &shape.weights, &shape.destination},
                        [&]() -> std::unique_ptr<PreparedKernel> {
                          switch (pass) {
                          case ConvolutionPass::Forward:
                            return forward(shape);
                          case ConvolutionPass::BackwardData:
                            return backwardData(shape);
                          case ConvolutionPass::BackwardWeights:
                            return backwardWeights(shape);
                          }
                          return nullptr;
                        });
}

} // namespace tessel::runtime
