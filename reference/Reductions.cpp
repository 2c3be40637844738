//===- Reductions.cpp - Reference reduction and normalization kernels -----===//

#include "reference/Reductions.h"
#include "reference/Shape.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace tessel::ref {

double reductionIdentity(ReductionKind kind) {
  switch (kind) {
  case ReductionKind::Sum:
  case ReductionKind::Mean:
    return 0.0;
  case ReductionKind::Prod:
    return 1.0;
  case ReductionKind::Max:
    return -std::numeric_limits<double>::infinity();
  case ReductionKind::Min:
    return std::numeric_limits<double>::infinity();
  }
  return 0.0;
}

double reductionCombine(ReductionKind kind, double accumulator, double value) {
  switch (kind) {
  case ReductionKind::Sum:
  case ReductionKind::Mean:
    return accumulator + value;
  case ReductionKind::Prod:
    return accumulator * value;
  case ReductionKind::Max:
    if (std::isnan(accumulator) || std::isnan(value))
      return std::numeric_limits<double>::quiet_NaN();
    return value > accumulator ? value : accumulator;
  case ReductionKind::Min:
    if (std::isnan(accumulator) || std::isnan(value))
      return std::numeric_limits<double>::quiet_NaN();
    return value < accumulator ? value : accumulator;
  }
  return accumulator;
}

Tensor reduce(ReductionKind kind, const Tensor &x,
              const TensorSpec &resultSpec) {
  // Iterate over the result dims followed by the reduced dims, so that the
  // result offset is the row-major position of the leading part.
  std::vector<std::string> loopDims = resultSpec.dims;
  std::vector<int64_t> loopShape = resultSpec.shape;
  int64_t reducedCount = 1;
  for (int d = 0; d < x.rank(); ++d) {
    if (resultSpec.hasDim(x.spec.dims[d]))
      continue;
    loopDims.push_back(x.spec.dims[d]);
    loopShape.push_back(x.spec.shape[d]);
    reducedCount *= x.spec.shape[d];
  }
  NamedIndexMap inputMap(loopDims, loopShape, x.spec);
  TensorSpec accumulatorSpec = resultSpec;
  accumulatorSpec.type = ElementType::F64;
  NamedIndexMap resultMap(loopDims, loopShape, accumulatorSpec);

  std::vector<double> accumulators(resultSpec.numElements(),
                                   reductionIdentity(kind));
  forEachIndex(loopShape, [&](const std::vector<int64_t> &index) {
    double &accumulator = accumulators[resultMap.offset(index)];
    accumulator =
        reductionCombine(kind, accumulator, x.data[inputMap.offset(index)]);
  });
  if (kind == ReductionKind::Mean)
    for (double &value : accumulators)
      value /= static_cast<double>(reducedCount);
  return Tensor(resultSpec, std::move(accumulators));
}

/// Calls `visit(offsets)` once per index of the dims of `spec` not listed in
/// `innerDims`, with the flat offsets of all elements that share that outer
/// index (a "fiber" over the inner dims), in row-major order of the inner
/// dims.
template <typename Visitor>
static void forEachFiber(const TensorSpec &spec,
                         const std::vector<std::string> &innerDims,
                         Visitor &&visit) {
  std::vector<int64_t> strides = rowMajorStrides(spec.shape);
  std::vector<int64_t> outerShape = spec.shape;
  std::vector<int64_t> innerShape, innerStrides;
  for (const std::string &name : innerDims) {
    int dim = spec.dimIndex(name);
    assert(dim >= 0 && "fiber dimension is not in the tensor");
    innerShape.push_back(spec.shape[dim]);
    innerStrides.push_back(strides[dim]);
    outerShape[dim] = 1;
  }
  std::vector<int64_t> offsets;
  forEachIndex(outerShape, [&](const std::vector<int64_t> &outer) {
    int64_t base = 0;
    for (size_t d = 0; d < outer.size(); ++d)
      base += outer[d] * strides[d];
    offsets.clear();
    forEachIndex(innerShape, [&](const std::vector<int64_t> &inner) {
      int64_t offset = base;
      for (size_t d = 0; d < inner.size(); ++d)
        offset += inner[d] * innerStrides[d];
      offsets.push_back(offset);
    });
    visit(static_cast<const std::vector<int64_t> &>(offsets));
  });
}

/// Shared body of softmax and logSoftmax.
static Tensor softmaxImpl(const Tensor &x, std::string_view dim, bool inLog) {
  Tensor result(x.spec);
  forEachFiber(
      x.spec, {std::string(dim)}, [&](const std::vector<int64_t> &offsets) {
        double maximum = -std::numeric_limits<double>::infinity();
        for (int64_t offset : offsets)
          maximum = std::max(maximum, x.data[offset]);
        double sum = 0.0;
        for (int64_t offset : offsets)
          sum += std::exp(x.data[offset] - maximum);
        double logSum = std::log(sum);
        for (int64_t offset : offsets) {
          double shifted = x.data[offset] - maximum;
          double value = inLog ? shifted - logSum : std::exp(shifted) / sum;
          result.data[offset] = roundToType(value, x.spec.type);
        }
      });
  return result;
}

Tensor softmax(const Tensor &x, std::string_view dim) {
  return softmaxImpl(x, dim, /*inLog=*/false);
}

Tensor logSoftmax(const Tensor &x, std::string_view dim) {
  return softmaxImpl(x, dim, /*inLog=*/true);
}

Tensor cumsum(const Tensor &x, std::string_view dim, bool reverse) {
  Tensor result(x.spec);
  forEachFiber(x.spec, {std::string(dim)},
               [&](const std::vector<int64_t> &offsets) {
                 double sum = 0.0;
                 auto add = [&](int64_t offset) {
                   sum += x.data[offset];
                   result.data[offset] = roundToType(sum, x.spec.type);
                 };
                 if (reverse)
                   std::for_each(offsets.rbegin(), offsets.rend(), add);
                 else
                   std::for_each(offsets.begin(), offsets.end(), add);
               });
  return result;
}

Tensor argmax(const Tensor &x, std::string_view dim,
              const TensorSpec &resultSpec) {
  // The fibers come in row-major order of the other dims, which is the
  // order of a result with x's dims less `dim`; the result may list them in
  // another order, so each index is written by name.
  TensorSpec rowMajor;
  rowMajor.type = resultSpec.type;
  for (int d = 0; d < x.spec.rank(); ++d)
    if (x.spec.dims[d] != dim) {
      rowMajor.dims.push_back(x.spec.dims[d]);
      rowMajor.shape.push_back(x.spec.shape[d]);
    }
  Tensor indices(rowMajor);
  int64_t fiber = 0;
  forEachFiber(
      x.spec, {std::string(dim)}, [&](const std::vector<int64_t> &offsets) {
        int64_t best = 0;
        for (int64_t i = 1; i < static_cast<int64_t>(offsets.size()); ++i) {
          double value = x.data[offsets[i]];
          double current = x.data[offsets[best]];
          if (std::isnan(current))
            break;
          if (std::isnan(value) || value > current)
            best = i;
        }
        indices.data[fiber++] =
            roundToType(static_cast<double>(best), rowMajor.type);
      });
  return transpose(indices, resultSpec);
}

Tensor topK(const Tensor &x, std::string_view dim, int64_t k,
            std::string_view outDim, bool indices,
            const TensorSpec &resultSpec) {
  // The result is built with x's dim order, `outDim` where `dim` was, so
  // that a fiber's chosen elements lie at the fiber's outer position with
  // the fiber's stride; the result may list its dims in another order, so
  // it is then transposed by name.
  TensorSpec inPlace = x.spec;
  inPlace.type = resultSpec.type;
  int d = inPlace.dimIndex(dim);
  inPlace.dims[d] = std::string(outDim);
  inPlace.shape[d] = k;
  Tensor chosen(inPlace);
  // The stride of `dim` in x and of `outDim` in the result are the same:
  // both are the product of the sizes after position d.
  int64_t stride = 1;
  for (int e = d + 1; e < x.rank(); ++e)
    stride *= x.spec.shape[e];
  int64_t size = x.spec.shape[d];
  std::vector<int64_t> order(size);
  forEachFiber(x.spec, {std::string(dim)},
               [&](const std::vector<int64_t> &offsets) {
                 for (int64_t i = 0; i < size; ++i)
                   order[i] = i;
                 std::partial_sort(order.begin(), order.begin() + k,
                                   order.end(), [&](int64_t a, int64_t b) {
                                     return ranksBefore(x.data[offsets[a]], a,
                                                        x.data[offsets[b]], b);
                                   });
                 // offsets[0] is the fiber's start in x; the result's is the
                 // same outer position with k instead of size along d.
                 int64_t outer = offsets[0] / (size * stride),
                         inner = offsets[0] % stride;
                 for (int64_t j = 0; j < k; ++j) {
                   double value = indices ? static_cast<double>(order[j])
                                          : x.data[offsets[order[j]]];
                   chosen.data[(outer * k + j) * stride + inner] =
                       roundToType(value, inPlace.type);
                 }
               });
  return transpose(chosen, resultSpec);
}

bool softmaxCrossEntropy(const Tensor &logits, const Tensor &labels,
                         std::string_view classDim,
                         const TensorSpec &resultSpec, Tensor &out,
                         std::string &error) {
  int64_t classes = logits.dimSize(classDim);
  NamedIndexMap labelMap(resultSpec.dims, resultSpec.shape, labels.spec);
  // Logits have one more dim than the result, so NamedIndexMap does not
  // apply; map each result dim to the logits stride of the same-named dim
  // and step along the class dim by its own stride.
  std::vector<int64_t> logitsStrides = rowMajorStrides(logits.spec.shape);
  int64_t classStride = logitsStrides[logits.dimIndex(classDim)];
  std::vector<int64_t> resultToLogits(resultSpec.dims.size());
  for (size_t i = 0; i < resultSpec.dims.size(); ++i) {
    int dim = logits.dimIndex(resultSpec.dims[i]);
    assert(dim >= 0 && "result dim missing from the logits");
    resultToLogits[i] = logitsStrides[dim];
  }

  std::vector<double> losses(resultSpec.numElements());
  int64_t flat = 0;
  bool ok = true;
  forEachIndex(resultSpec.shape, [&](const std::vector<int64_t> &index) {
    if (!ok)
      return;
    double labelValue = labels.data[labelMap.offset(index)];
    if (!(labelValue >= 0.0 && labelValue < static_cast<double>(classes))) {
      error = "label " + std::to_string(static_cast<int64_t>(labelValue)) +
              " at " + describeIndex(resultSpec, index) +
              " is outside the class range [0, " + std::to_string(classes) +
              ")";
      ok = false;
      return;
    }
    int64_t base = 0;
    for (size_t i = 0; i < index.size(); ++i)
      base += index[i] * resultToLogits[i];
    double maximum = -std::numeric_limits<double>::infinity();
    for (int64_t c = 0; c < classes; ++c)
      maximum = std::max(maximum, logits.data[base + c * classStride]);
    double sum = 0.0;
    for (int64_t c = 0; c < classes; ++c)
      sum += std::exp(logits.data[base + c * classStride] - maximum);
    double logSumExp = maximum + std::log(sum);
    auto label = static_cast<int64_t>(labelValue);
    losses[flat++] = logSumExp - logits.data[base + label * classStride];
  });
  if (!ok)
    return false;
  out = Tensor(resultSpec, std::move(losses));
  return true;
}

Tensor layerNorm(const Tensor &x, const std::vector<std::string> &dims,
                 double epsilon) {
  Tensor result(x.spec);
  forEachFiber(x.spec, dims, [&](const std::vector<int64_t> &offsets) {
    double count = static_cast<double>(offsets.size());
    double mean = 0.0;
    for (int64_t offset : offsets)
      mean += x.data[offset];
    mean /= count;
    double variance = 0.0;
    for (int64_t offset : offsets) {
      double deviation = x.data[offset] - mean;
      variance += deviation * deviation;
    }
    variance /= count;
    double scale = 1.0 / std::sqrt(variance + epsilon);
    for (int64_t offset : offsets)
      result.data[offset] =
          roundToType((x.data[offset] - mean) * scale, x.spec.type);
  });
  return result;
}

} // namespace tessel::ref
