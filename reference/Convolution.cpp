//===- Convolution.cpp - Reference convolution and pooling kernels --------===//

#include "reference/Convolution.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace tessel::ref {

/// Floor division that also rounds negative numerators down, so that a
/// window larger than the padded input yields a size of at most 0.
static int64_t floorDiv(int64_t numerator, int64_t denominator) {
  int64_t quotient = numerator / denominator;
  if ((numerator % denominator != 0) && ((numerator < 0) != (denominator < 0)))
    --quotient;
  return quotient;
}

int64_t convOutputSize(int64_t inputSize, int64_t kernelSize, int64_t stride,
                       int64_t dilation, int64_t padLow, int64_t padHigh) {
  return floorDiv(inputSize + padLow + padHigh - dilation * (kernelSize - 1) -
                      1,
                  stride) +
         1;
}

int64_t poolOutputSize(int64_t inputSize, int64_t window, int64_t stride,
                       int64_t padLow, int64_t padHigh) {
  return floorDiv(inputSize + padLow + padHigh - window, stride) + 1;
}

namespace {
/// Where the two spatial dims and the pass-through dims of an input sit,
/// resolved against a result spec: for each result dim, the input stride it
/// contributes directly (pass-through) or 0, plus the positions of the result
/// dims that drive the windows.
struct WindowedLayout {
  std::vector<int64_t> passThroughStrides; // Per result dim.
  std::array<int, 2> resultSpatial;        // Result positions of H and W.
  std::array<int64_t, 2> inputSpatialStride;
  std::array<int64_t, 2> inputSpatialSize;

  WindowedLayout(const TensorSpec &input, const TensorSpec &result,
                 const std::array<std::string, 2> &spatial,
                 std::string_view skippedResultDim) {
    std::vector<int64_t> strides = rowMajorStrides(input.shape);
    passThroughStrides.assign(result.dims.size(), 0);
    for (int d = 0; d < result.rank(); ++d) {
      const std::string &name = result.dims[d];
      if (name == spatial[0] || name == spatial[1] || name == skippedResultDim)
        continue;
      int inputDim = input.dimIndex(name);
      assert(inputDim >= 0 && "result dim missing from the input");
      assert(input.shape[inputDim] == result.shape[d] &&
             "pass-through dims must keep their size");
      passThroughStrides[d] = strides[inputDim];
    }
    for (int s = 0; s < 2; ++s) {
      resultSpatial[s] = result.dimIndex(spatial[s]);
      int inputDim = input.dimIndex(spatial[s]);
      assert(resultSpatial[s] >= 0 && inputDim >= 0 && "missing spatial dim");
      inputSpatialStride[s] = strides[inputDim];
      inputSpatialSize[s] = input.shape[inputDim];
    }
  }

  int64_t passThroughOffset(const std::vector<int64_t> &resultIndex) const {
    int64_t offset = 0;
    for (size_t d = 0; d < resultIndex.size(); ++d)
      offset += resultIndex[d] * passThroughStrides[d];
    return offset;
  }
};
} // namespace

/// Calls `visit(resultOffset, xOffset, filterOffset)` for every tap of the
/// convolution that reads an in-range input element: for every result
/// element in row-major order, over c, then i, then j. The forward op and
/// both of its gradients walk these same taps.
template <typename Visit>
static void forEachConvolutionTap(const TensorSpec &x, const TensorSpec &filter,
                                  const ConvParams &params,
                                  const TensorSpec &resultSpec, Visit &&visit) {
  assert(filter.rank() == 4 && "filter must have exactly four dims");
  WindowedLayout layout(x, resultSpec, params.spatial, params.outputChannel);
  std::vector<int64_t> xStrides = rowMajorStrides(x.shape);
  std::vector<int64_t> filterStrides = rowMajorStrides(filter.shape);
  // With groups, each output channel reads one group of `channels` inputs
  // (the filter's inputChannel), starting at its group's first.
  int64_t groups = params.groups;
  assert(groups >= 1 && x.dimSize(params.inputChannel) % groups == 0 &&
         "groups must divide the input channels");
  int64_t channels = x.dimSize(params.inputChannel) / groups;
  assert(filter.dimSize(params.inputChannel) == channels &&
         "input channel sizes differ");
  int64_t outputsPerGroup = filter.dimSize(params.outputChannel) / groups;
  int64_t xChannelStride = xStrides[x.dimIndex(params.inputChannel)];
  int64_t filterChannelStride =
      filterStrides[filter.dimIndex(params.inputChannel)];
  int64_t filterOutputStride =
      filterStrides[filter.dimIndex(params.outputChannel)];
  std::array<int64_t, 2> kernelSize, kernelStride;
  for (int s = 0; s < 2; ++s) {
    kernelSize[s] = filter.dimSize(params.kernel[s]);
    kernelStride[s] = filterStrides[filter.dimIndex(params.kernel[s])];
    assert(resultSpec.shape[layout.resultSpatial[s]] ==
               convOutputSize(layout.inputSpatialSize[s], kernelSize[s],
                              params.strides[s], params.dilations[s],
                              params.padding[2 * s],
                              params.padding[2 * s + 1]) &&
           "result spatial size does not match the convolution");
  }
  int resultOutputDim = resultSpec.dimIndex(params.outputChannel);
  assert(resultOutputDim >= 0 && "result lacks the output channel");

  int64_t flat = 0;
  forEachIndex(resultSpec.shape, [&](const std::vector<int64_t> &index) {
    int64_t xBase =
        layout.passThroughOffset(index) +
        index[resultOutputDim] / outputsPerGroup * channels * xChannelStride;
    int64_t filterBase = index[resultOutputDim] * filterOutputStride;
    std::array<int64_t, 2> origin;
    for (int s = 0; s < 2; ++s)
      origin[s] = index[layout.resultSpatial[s]] * params.strides[s] -
                  params.padding[2 * s];
    for (int64_t c = 0; c < channels; ++c) {
      for (int64_t i = 0; i < kernelSize[0]; ++i) {
        int64_t h = origin[0] + i * params.dilations[0];
        if (h < 0 || h >= layout.inputSpatialSize[0])
          continue;
        for (int64_t j = 0; j < kernelSize[1]; ++j) {
          int64_t w = origin[1] + j * params.dilations[1];
          if (w < 0 || w >= layout.inputSpatialSize[1])
            continue;
          visit(flat,
                xBase + c * xChannelStride + h * layout.inputSpatialStride[0] +
                    w * layout.inputSpatialStride[1],
                filterBase + c * filterChannelStride + i * kernelStride[0] +
                    j * kernelStride[1]);
        }
      }
    }
    ++flat;
  });
}

Tensor conv2d(const Tensor &x, const Tensor &filter, const ConvParams &params,
              const TensorSpec &resultSpec) {
  std::vector<double> values(resultSpec.numElements(), 0.0);
  forEachConvolutionTap(x.spec, filter.spec, params, resultSpec,
                        [&](int64_t out, int64_t in, int64_t weight) {
                          values[out] += x.data[in] * filter.data[weight];
                        });
  return Tensor(resultSpec, std::move(values));
}

Tensor conv2dBackwardInput(const Tensor &resultGradient, const Tensor &filter,
                           const ConvParams &params,
                           const TensorSpec &inputSpec) {
  std::vector<double> values(inputSpec.numElements(), 0.0);
  forEachConvolutionTap(inputSpec, filter.spec, params, resultGradient.spec,
                        [&](int64_t out, int64_t in, int64_t weight) {
                          values[in] +=
                              resultGradient.data[out] * filter.data[weight];
                        });
  return Tensor(inputSpec, std::move(values));
}

Tensor conv2dBackwardFilter(const Tensor &x, const Tensor &resultGradient,
                            const ConvParams &params,
                            const TensorSpec &filterSpec) {
  std::vector<double> values(filterSpec.numElements(), 0.0);
  forEachConvolutionTap(x.spec, filterSpec, params, resultGradient.spec,
                        [&](int64_t out, int64_t in, int64_t weight) {
                          values[weight] +=
                              x.data[in] * resultGradient.data[out];
                        });
  return Tensor(filterSpec, std::move(values));
}

/// Calls `visit(resultOffset, inputOffsets)` for every result element of a
/// pooling, in row-major order, with the offsets of its window's in-range
/// input elements in row-major window order.
template <typename Visit>
static void forEachPoolingWindow(const TensorSpec &x, const PoolParams &params,
                                 const TensorSpec &resultSpec, Visit &&visit) {
  WindowedLayout layout(x, resultSpec, params.spatial,
                        /*skippedResultDim=*/"");
  for (int s = 0; s < 2; ++s) {
    (void)s;
    assert(resultSpec.shape[layout.resultSpatial[s]] ==
               poolOutputSize(layout.inputSpatialSize[s], params.window[s],
                              params.strides[s], params.padding[2 * s],
                              params.padding[2 * s + 1]) &&
           "result spatial size does not match the pooling");
  }
  std::vector<int64_t> offsets;
  int64_t flat = 0;
  forEachIndex(resultSpec.shape, [&](const std::vector<int64_t> &index) {
    int64_t base = layout.passThroughOffset(index);
    std::array<int64_t, 2> origin;
    for (int s = 0; s < 2; ++s)
      origin[s] = index[layout.resultSpatial[s]] * params.strides[s] -
                  params.padding[2 * s];
    offsets.clear();
    for (int64_t i = 0; i < params.window[0]; ++i) {
      int64_t h = origin[0] + i;
      if (h < 0 || h >= layout.inputSpatialSize[0])
        continue;
      for (int64_t j = 0; j < params.window[1]; ++j) {
        int64_t w = origin[1] + j;
        if (w < 0 || w >= layout.inputSpatialSize[1])
          continue;
        offsets.push_back(base + h * layout.inputSpatialStride[0] +
                          w * layout.inputSpatialStride[1]);
      }
    }
    visit(flat++, static_cast<const std::vector<int64_t> &>(offsets));
  });
}

/// Returns the offset among `offsets` of the first maximum of `x`, the one
/// max pooling passes its gradient to; a NaN counts as the maximum.
static int64_t firstMaximum(const Tensor &x,
                            const std::vector<int64_t> &offsets) {
  int64_t best = offsets.front();
  for (int64_t offset : offsets) {
    if (std::isnan(x.data[best]))
      break;
    if (std::isnan(x.data[offset]) || x.data[offset] > x.data[best])
      best = offset;
  }
  return best;
}

Tensor pool(PoolKind kind, const Tensor &x, const PoolParams &params,
            const TensorSpec &resultSpec) {
  std::vector<double> values(resultSpec.numElements());
  forEachPoolingWindow(
      x.spec, params, resultSpec,
      [&](int64_t out, const std::vector<int64_t> &offsets) {
        if (kind == PoolKind::Max) {
          values[out] = offsets.empty()
                            ? -std::numeric_limits<double>::infinity()
                            : x.data[firstMaximum(x, offsets)];
          return;
        }
        double sum = 0.0;
        for (int64_t offset : offsets)
          sum += x.data[offset];
        values[out] =
            offsets.empty() ? 0.0 : sum / static_cast<double>(offsets.size());
      });
  return Tensor(resultSpec, std::move(values));
}

Tensor poolBackward(PoolKind kind, const Tensor &x,
                    const Tensor &resultGradient, const PoolParams &params) {
  std::vector<double> values(x.numElements(), 0.0);
  forEachPoolingWindow(x.spec, params, resultGradient.spec,
                       [&](int64_t out, const std::vector<int64_t> &offsets) {
                         if (offsets.empty())
                           return;
                         double gradient = resultGradient.data[out];
                         if (kind == PoolKind::Max) {
                           values[firstMaximum(x, offsets)] += gradient;
                           return;
                         }
                         for (int64_t offset : offsets)
                           values[offset] +=
                               gradient / static_cast<double>(offsets.size());
                       });
  return Tensor(x.spec, std::move(values));
}

} // namespace tessel::ref
