//===- FastCrossEntropy.cpp - softmax_cross_entropy in f32 ----------------===//

#include "executor/FastCrossEntropy.h"

#include "executor/Buffers.h"
#include "executor/FastKernel.h"
#include "executor/OuterWalk.h"
#include "executor/VectorMath.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace tessel::runtime {

namespace {

// Sixteen partial results, so that the loops vectorise.
constexpr int kLanes = 16;

float largest(const float *x, int64_t count) {
  float lanes[kLanes];
  std::fill(lanes, lanes + kLanes, -std::numeric_limits<float>::infinity());
  int64_t i = 0;
  for (; i + kLanes <= count; i += kLanes)
    for (int j = 0; j < kLanes; ++j)
      lanes[j] = std::max(lanes[j], x[i + j]);
  for (; i < count; ++i)
    lanes[0] = std::max(lanes[0], x[i]);
  return *std::max_element(lanes, lanes + kLanes);
}

double total(const float *x, int64_t count) {
  float lanes[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= count; i += kLanes)
    for (int j = 0; j < kLanes; ++j)
      lanes[j] += x[i + j];
  double sum = 0;
  for (; i < count; ++i)
    sum += x[i];
  for (float lane : lanes)
    sum += lane;
  return sum;
}

} // namespace

std::optional<Kernel> buildFastSoftmaxCrossEntropy(const OpDescriptor &desc,
                                                   const std::string &dim,
                                                   Kernel reference) {
  if (desc.operands.size() != 2)
    return std::nullopt;
  const TensorType &logits = desc.operands[0], &labels = desc.operands[1];
  const TensorType &result = desc.result;
  ref::ElementType labelType = labels.type;
  if (logits.type != ref::ElementType::F32 ||
      result.type != ref::ElementType::F32 ||
      (labelType != ref::ElementType::I32 &&
       labelType != ref::ElementType::I64) ||
      !hasDim(logits, dim) || logits.numElements() == 0)
    return std::nullopt;
  for (const std::string &name : result.dims)
    if (!hasDim(logits, name) || !hasDim(labels, name))
      return std::nullopt;
  int64_t classes = logits.shape[logits.dimIndex(dim, "the logits")];
  int64_t classStride = strideOf(logits, dim);
  // Where each result element's row and label lie: the strides of the
  // result's dims in the logits and in the labels.
  std::vector<int64_t> shape = result.shape, logitsStrides, labelStrides;
  for (const std::string &name : result.dims) {
    logitsStrides.push_back(strideOf(logits, name));
    labelStrides.push_back(strideOf(labels, name));
  }
  return Kernel([=](tessel_context_t &context, void *const *operands,
                    void *out) {
    const float *x = static_cast<const float *>(operands[0]);
    float *loss = static_cast<float *>(out);
    std::vector<float> row(classes);
    // One result element per step: every result dim is an outer dim.
    OuterWalk<2> walk(shape, shape.size(), {&logitsStrides, &labelStrides});
    int64_t k = 0;
    do {
      auto label = static_cast<int64_t>(
          loadElement(labelType, operands[1], walk.offset(1)));
      if (label < 0 || label >= classes) {
        reference(context, operands, out); // Throws, naming the label.
        return;
      }
      const float *logit = x + walk.offset(0);
      if (classStride == 1)
        std::copy(logit, logit + classes, row.begin());
      else
        for (int64_t c = 0; c < classes; ++c)
          row[c] = logit[c * classStride];
      float maximum = largest(row.data(), classes);
      for (float &value : row)
        value -= maximum;
      applyVectorFunction(VectorFunction::Exp, row.data(), row.data(), classes);
      loss[k++] =
          static_cast<float>(maximum + std::log(total(row.data(), classes)) -
                             logit[label * classStride]);
    } while (walk.next());
  });
}

} // namespace tessel::runtime
