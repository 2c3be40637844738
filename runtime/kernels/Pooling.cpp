//===- Pooling.cpp - 2-D max and average pooling on oneDNN ----------------===//

#include "kernels/Pooling.h"

#include "kernels/Primitives.h"

namespace tessel::runtime {

namespace {

using dnnl::memory;

bool isSupported(const PoolingShape &shape) {
  for (const StridedTensor *tensor : {&shape.source, &shape.destination})
    if (tensor->dims.size() != 4 || numElements(*tensor) == 0 ||
        tensor->type != shape.source.type)
      return false;
  if (!dnnlType(shape.source.type))
    return false;
  for (int s = 0; s < 2; ++s)
    if (shape.window[s] < 1 || shape.strides[s] < 1 ||
        shape.paddingLow[s] < 0 || shape.paddingHigh[s] < 0)
      return false;
  return !hasWindowInPaddingOnly(shape);
}

dnnl::algorithm algorithmOf(PoolingKind kind) {
  return kind == PoolingKind::Max
             ? dnnl::algorithm::pooling_max
             : dnnl::algorithm::pooling_avg_exclude_padding;
}

memory::dims dims(const std::array<int64_t, 2> &values) {
  return {values[0], values[1]};
}

/// The forward pooling over the caller's source layout; the destination's
/// layout is oneDNN's choice (it follows the source's).
dnnl::pooling_forward::primitive_desc
forwardDesc(PoolingKind kind, const PoolingShape &shape, dnnl::prop_kind prop) {
  dnnl::pooling_forward::desc desc(
      prop, algorithmOf(kind), userLayout(shape.source),
      anyLayout(shape.destination), dims(shape.strides), dims(shape.window),
      dims(shape.paddingLow), dims(shape.paddingHigh));
  return {desc, callerScratchpad(), cpuEngine()};
}

std::unique_ptr<PreparedKernel> forward(PoolingKind kind,
                                        const PoolingShape &shape) {
  auto pd = forwardDesc(kind, shape, dnnl::prop_kind::forward_inference);
  auto chain = std::make_unique<PrimitiveChain>();
  auto source = chain->addInput(userLayout(shape.source), pd.src_desc());
  auto destination =
      chain->setOutput(userLayout(shape.destination), pd.dst_desc());
  chain->addStep(dnnl::pooling_forward(pd),
                 {{DNNL_ARG_SRC, source}, {DNNL_ARG_DST, destination}});
  return chain;
}

std::unique_ptr<PreparedKernel> backward(PoolingKind kind,
                                         const PoolingShape &shape) {
  auto forwardPd = forwardDesc(kind, shape, dnnl::prop_kind::forward_training);
  dnnl::pooling_backward::desc desc(algorithmOf(kind), anyLayout(shape.source),
                                    forwardPd.dst_desc(), dims(shape.strides),
                                    dims(shape.window), dims(shape.paddingLow),
                                    dims(shape.paddingHigh));
  dnnl::pooling_backward::primitive_desc pd(desc, callerScratchpad(),
                                            cpuEngine(), forwardPd);

  auto chain = std::make_unique<PrimitiveChain>();
  auto source = chain->addInput(userLayout(shape.source), forwardPd.src_desc());
  auto destinationGradient =
      chain->addInput(userLayout(shape.destination), pd.diff_dst_desc());
  auto sourceGradient =
      chain->setOutput(userLayout(shape.source), pd.diff_src_desc());
  if (kind == PoolingKind::Max) {
    // Average pooling's gradient depends on the window sizes only; max
    // pooling's on where each maximum is, which the forward pass records.
    auto destination = chain->addScratch(forwardPd.dst_desc());
    auto workspace = chain->addScratch(forwardPd.workspace_desc());
    chain->addStep(dnnl::pooling_forward(forwardPd),
                   {{DNNL_ARG_SRC, source},
                    {DNNL_ARG_DST, destination},
                    {DNNL_ARG_WORKSPACE, workspace}});
    chain->addStep(dnnl::pooling_backward(pd),
                   {{DNNL_ARG_DIFF_DST, destinationGradient},
                    {DNNL_ARG_WORKSPACE, workspace},
                    {DNNL_ARG_DIFF_SRC, sourceGradient}});
  } else {
    chain->addStep(dnnl::pooling_backward(pd),
                   {{DNNL_ARG_DIFF_DST, destinationGradient},
                    {DNNL_ARG_DIFF_SRC, sourceGradient}});
  }
  return chain;
}

} // namespace

bool hasWindowInPaddingOnly(const PoolingShape &shape) {
  for (int s = 0; s < 2; ++s) {
    int64_t input = shape.source.dims[2 + s];
    int64_t outputs = shape.destination.dims[2 + s];
    for (int64_t o = 0; o < outputs; ++o) {
      int64_t first = o * shape.strides[s] - shape.paddingLow[s];
      int64_t last = first + shape.window[s] - 1;
      if (last < 0 || first >= input)
        return true;
    }
  }
  return false;
}

std::unique_ptr<PreparedKernel> preparePooling(PoolingKind kind,
                                               const PoolingShape &shape) {
  if (!isSupported(shape))
    return nullptr;
  return preparedOrNull({&shape.source, &shape.destination},
                        [&] { return forward(kind, shape); });
}

std::unique_ptr<PreparedKernel>
preparePoolingBackward(PoolingKind kind, const PoolingShape &shape) {
  if (!isSupported(shape))
    return nullptr;
  return preparedOrNull({&shape.source, &shape.destination},
                        [&] { return backward(kind, shape); });
}

} // namespace tessel::runtime
