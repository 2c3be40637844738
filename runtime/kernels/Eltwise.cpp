//===- Eltwise.cpp - Element-wise unary ops on oneDNN ---------------------===//

#include "kernels/Eltwise.h"

#include "kernels/Primitives.h"

namespace tessel::runtime {

namespace {

/// oneDNN's eltwise algorithm and its alpha and beta for an op.
struct EltwiseParameters {
  dnnl::algorithm algorithm;
  float alpha = 0.f;
  float beta = 0.f;
};

EltwiseParameters parametersOf(EltwiseAlgorithm op) {
  using dnnl::algorithm;
  switch (op) {
  case EltwiseAlgorithm::Negate: // alpha * x + beta
    return {algorithm::eltwise_linear, -1.f, 0.f};
  case EltwiseAlgorithm::Abs:
    return {algorithm::eltwise_abs};
  case EltwiseAlgorithm::Exp:
    return {algorithm::eltwise_exp};
  case EltwiseAlgorithm::Sqrt:
    return {algorithm::eltwise_sqrt};
  case EltwiseAlgorithm::Rsqrt: // alpha * x ^ beta
    return {algorithm::eltwise_pow, 1.f, -0.5f};
  case EltwiseAlgorithm::Tanh:
    return {algorithm::eltwise_tanh};
  case EltwiseAlgorithm::Sigmoid:
    return {algorithm::eltwise_logistic};
  case EltwiseAlgorithm::Relu: // x > 0 ? x : alpha * x
    return {algorithm::eltwise_relu, 0.f};
  }
  return {algorithm::eltwise_linear, 1.f, 0.f};
}

} // namespace

std::unique_ptr<PreparedKernel> prepareEltwise(EltwiseAlgorithm algorithm,
                                               const StridedTensor &data) {
  if (!dnnlType(data.type) || numElements(data) == 0)
    return nullptr;
  return preparedOrNull({&data}, [&] {
    EltwiseParameters parameters = parametersOf(algorithm);
    dnnl::memory::desc layout = userLayout(data);
    dnnl::eltwise_forward::desc desc(dnnl::prop_kind::forward_inference,
                                     parameters.algorithm, layout,
                                     parameters.alpha, parameters.beta);
    dnnl::eltwise_forward::primitive_desc pd(desc, callerScratchpad(),
                                             cpuEngine());
    auto chain = std::make_unique<PrimitiveChain>();
    auto source = chain->addInput(layout, pd.src_desc());
    auto destination = chain->setOutput(layout, pd.dst_desc());
    chain->addStep(dnnl::eltwise_forward(pd),
                   {{DNNL_ARG_SRC, source}, {DNNL_ARG_DST, destination}});
    return chain;
  });
}

} // namespace tessel::runtime
