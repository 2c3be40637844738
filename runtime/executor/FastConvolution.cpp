//===- FastConvolution.cpp - conv2d and its gradients on oneDNN -----------===//
//
// The dialect's convolution names its dims: x has the input channel, two
// spatial dims and dims that pass through (batch, ...); the filter has the
// input and output channels and two kernel dims; the result has x's dims
// with the output channel for the input channel, each tensor in any order.
// oneDNN's are [N, C, H, W], [O, C, KH, KW] and [N, O, OH, OW]: the
// pass-through dims become N, and every tensor keeps its own layout, which
// the strides describe.
//
//===----------------------------------------------------------------------===//

#include "executor/FastConvolution.h"

#include "executor/FastKernel.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/Convolution.h"
#endif

namespace tessel::runtime {

#ifdef TESSEL_RUNTIME_HAS_KERNELS

namespace {

/// The three tensors of a convolution, whichever op's operands or result
/// each is.
struct ConvolutionTensors {
  const TensorType *x, *filter, *y;
};

ConvolutionTensors tensorsOf(ConvolutionOp op, const OpDescriptor &desc) {
  const TensorType &first = desc.operands[0], &second = desc.operands[1];
  switch (op) {
  case ConvolutionOp::Forward: // conv2d(x, filter) -> y
    return {&first, &second, &desc.result};
  case ConvolutionOp::BackwardInput: // (dy, filter) -> dx
    return {&desc.result, &second, &first};
  case ConvolutionOp::BackwardFilter: // (x, dy) -> dfilter
    return {&first, &desc.result, &second};
  }
  return {&first, &second, &desc.result};
}

/// The named dims of x other than the channel and spatial ones, if y has
/// exactly them besides its own channel and spatial dims.
std::optional<std::vector<std::string>>
passThroughDims(const ConvolutionTensors &t, const ref::ConvParams &params) {
  std::vector<std::string> passing;
  for (const std::string &dim : t.x->dims)
    if (dim != params.inputChannel && dim != params.spatial[0] &&
        dim != params.spatial[1])
      passing.push_back(dim);
  if (t.y->rank() != static_cast<int>(passing.size()) + 3)
    return std::nullopt;
  for (const std::string &dim : passing)
    if (!hasDim(*t.y, dim) || dim == params.outputChannel)
      return std::nullopt;
  return passing;
}

bool hasConvolutionDims(const ConvolutionTensors &t,
                        const ref::ConvParams &params) {
  if (t.x->rank() < 3 || t.filter->rank() != 4)
    return false;
  for (const std::string &dim :
       {params.inputChannel, params.spatial[0], params.spatial[1]})
    if (!hasDim(*t.x, dim))
      return false;
  for (const std::string &dim :
       {params.outputChannel, params.spatial[0], params.spatial[1]})
    if (!hasDim(*t.y, dim))
      return false;
  for (const std::string &dim : {params.inputChannel, params.outputChannel,
                                 params.kernel[0], params.kernel[1]})
    if (!hasDim(*t.filter, dim))
      return false;
  return true;
}

/// [N, channel, spatial0, spatial1] of a tensor, N being `batch`.
StridedTensor imageView(const TensorType &type, const DimGroup &batch,
                        size_t batchIndex, const std::string &channel,
                        const std::array<std::string, 2> &spatial) {
  StridedTensor view;
  view.type = kernelType(type);
  view.dims = {batch.size};
  view.strides = {batch.strides[batchIndex]};
  for (const std::string &dim : {channel, spatial[0], spatial[1]}) {
    view.dims.push_back(type.shape[type.dimIndex(dim, "a tensor")]);
    view.strides.push_back(strideOf(type, dim));
  }
  return view;
}

} // namespace

std::optional<Kernel> buildFastConvolution(ConvolutionOp op,
                                           const OpDescriptor &desc,
                                           const ref::ConvParams &params,
                                           Kernel reference) {
  if (desc.operands.size() != 2)
    return std::nullopt;
  ConvolutionTensors t = tensorsOf(op, desc);
  if (!allOfKernelType({t.x, t.filter, t.y}) || !hasConvolutionDims(t, params))
    return std::nullopt;
  std::optional<std::vector<std::string>> passing = passThroughDims(t, params);
  if (!passing)
    return std::nullopt;
  std::optional<std::vector<DimGroup>> batch =
      groupDims(*passing, {t.x, t.y}, 1);
  if (!batch)
    return std::nullopt;
  DimGroup n = batch->empty() ? DimGroup{1, {1, 1}} : batch->front();

  ConvolutionShape shape;
  shape.source = imageView(*t.x, n, 0, params.inputChannel, params.spatial);
  shape.destination =
      imageView(*t.y, n, 1, params.outputChannel, params.spatial);
  shape.weights.type = kernelType(*t.filter);
  for (const std::string &dim : {params.outputChannel, params.inputChannel,
                                 params.kernel[0], params.kernel[1]}) {
    shape.weights.dims.push_back(
        t.filter->shape[t.filter->dimIndex(dim, "the filter")]);
    shape.weights.strides.push_back(strideOf(*t.filter, dim));
  }
  // Grouped: oneDNN's weights [G, O/G, C/G, KH, KW], the output channel
  // split into its groups (the filter's input channel is one group's).
  if (params.groups > 1) {
    int64_t outputs = shape.weights.dims[0];
    if (outputs % params.groups != 0)
      return std::nullopt;
    shape.weights.dims[0] = outputs / params.groups;
    shape.weights.dims.insert(shape.weights.dims.begin(), params.groups);
    shape.weights.strides.insert(shape.weights.strides.begin(),
                                 shape.weights.strides[0] *
                                     (outputs / params.groups));
  }
  for (int s = 0; s < 2; ++s) {
    shape.strides[s] = params.strides[s];
    shape.dilations[s] = params.dilations[s];
    shape.paddingLow[s] = params.padding[2 * s];
    shape.paddingHigh[s] = params.padding[2 * s + 1];
  }
  ConvolutionPass pass = op == ConvolutionOp::Forward ? ConvolutionPass::Forward
                         : op == ConvolutionOp::BackwardInput
                             ? ConvolutionPass::BackwardData
                             : ConvolutionPass::BackwardWeights;
  // The op's operands are the pass's inputs in the same order.
  return runPrepared(prepareConvolution(pass, shape), std::move(reference));
}

#else

std::optional<Kernel> buildFastConvolution(ConvolutionOp, const OpDescriptor &,
                                           const ref::ConvParams &, Kernel) {
  return std::nullopt;
}

#endif

} // namespace tessel::runtime
