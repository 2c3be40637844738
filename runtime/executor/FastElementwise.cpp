//===- FastElementwise.cpp - f32 element-wise ops without doubles ---------===//

#include "executor/FastElementwise.h"

namespace tessel::runtime {

namespace {

bool allF32(const OpDescriptor &desc) {
  if (desc.result.type != ref::ElementType::F32)
    return false;
  for (const TensorType &operand : desc.operands)
    if (operand.type != ref::ElementType::F32)
      return false;
  return true;
}

/// How an operand is read while the result is walked in row-major order:
/// its stride along each result dim (0 where it is broadcast), and whether
/// it is simply the result's own layout or a scalar.
struct OperandWalk {
  std::vector<int64_t> strides;
  bool sameLayout = false;
  bool scalar = false;

  OperandWalk(const TensorType &operand, const TensorType &result) {
    std::vector<int64_t> own = ref::rowMajorStrides(operand.shape);
    for (const std::string &dim : result.dims) {
      auto it = std::find(operand.dims.begin(), operand.dims.end(), dim);
      strides.push_back(
          it == operand.dims.end() ? 0 : own[it - operand.dims.begin()]);
    }
    sameLayout = operand.dims == result.dims;
    scalar = operand.numElements() == 1;
  }
};

} // namespace

std::optional<Kernel> buildFastUnary(ref::UnaryKind kind,
                                     const OpDescriptor &desc) {
  if (!allF32(desc) || desc.operands[0].dims != desc.result.dims)
    return std::nullopt;
  int64_t count = desc.result.numElements();
  return Kernel(
      [kind, count](tessel_context_t &, void *const *operands, void *result) {
        const float *x = static_cast<const float *>(operands[0]);
        float *y = static_cast<float *>(result);
        for (int64_t i = 0; i < count; ++i)
          y[i] = static_cast<float>(ref::applyUnary(kind, x[i]));
      });
}

std::optional<Kernel> buildFastBinary(ref::BinaryKind kind,
                                      const OpDescriptor &desc) {
  if (!allF32(desc))
    return std::nullopt;
  OperandWalk a(desc.operands[0], desc.result),
      b(desc.operands[1], desc.result);
  std::vector<int64_t> shape = desc.result.shape;
  int64_t count = desc.result.numElements();
  return Kernel([=](tessel_context_t &, void *const *operands, void *result) {
    const float *x = static_cast<const float *>(operands[0]);
    const float *z = static_cast<const float *>(operands[1]);
    float *y = static_cast<float *>(result);
    auto apply = [kind](double l, double r) {
      return static_cast<float>(
          ref::applyBinary(kind, l, r, /*integerResult=*/false));
    };
    // The common cases of a training step: same layouts, and a scalar
    // (a learning rate, a hyperparameter) on either side.
    if ((a.sameLayout || a.scalar) && (b.sameLayout || b.scalar)) {
      for (int64_t i = 0; i < count; ++i)
        y[i] = apply(x[a.scalar ? 0 : i], z[b.scalar ? 0 : i]);
      return;
    }
    std::vector<int64_t> index(shape.size(), 0);
    int64_t offsetA = 0, offsetB = 0;
    for (int64_t i = 0; i < count; ++i) {
      y[i] = apply(x[offsetA], z[offsetB]);
      // Steps the row-major index and both operand offsets.
      for (int d = static_cast<int>(shape.size()) - 1; d >= 0; --d) {
        offsetA += a.strides[d];
        offsetB += b.strides[d];
        if (++index[d] < shape[d])
          break;
        offsetA -= a.strides[d] * shape[d];
        offsetB -= b.strides[d] * shape[d];
        index[d] = 0;
      }
    }
  });
}

} // namespace tessel::runtime
