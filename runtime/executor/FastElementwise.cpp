//===- FastElementwise.cpp - f32 element-wise ops without doubles ---------===//

#include "executor/FastElementwise.h"

#include "executor/FastKernel.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/Binary.h"
#include "kernels/Eltwise.h"
#endif

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

#ifdef TESSEL_RUNTIME_HAS_KERNELS

/// oneDNN's eltwise algorithm for the op, if it has one.
std::optional<EltwiseAlgorithm> eltwiseOf(ref::UnaryKind kind) {
  using UK = ref::UnaryKind;
  switch (kind) {
  case UK::Neg:
    return EltwiseAlgorithm::Negate;
  case UK::Abs:
    return EltwiseAlgorithm::Abs;
  case UK::Exp:
    return EltwiseAlgorithm::Exp;
  case UK::Log:
    return EltwiseAlgorithm::Log;
  case UK::Sqrt:
    return EltwiseAlgorithm::Sqrt;
  case UK::Rsqrt:
    return EltwiseAlgorithm::Rsqrt;
  case UK::Tanh:
    return EltwiseAlgorithm::Tanh;
  case UK::Sigmoid:
    return EltwiseAlgorithm::Sigmoid;
  case UK::Relu:
    return EltwiseAlgorithm::Relu;
  case UK::Gelu:
    return EltwiseAlgorithm::Gelu;
  case UK::Erf:
    return std::nullopt;
  }
  return std::nullopt;
}

/// oneDNN's binary algorithm for the op, if it has one (pow it has not).
std::optional<BinaryAlgorithm> binaryOf(ref::BinaryKind kind) {
  using BK = ref::BinaryKind;
  switch (kind) {
  case BK::Add:
    return BinaryAlgorithm::Add;
  case BK::Sub:
    return BinaryAlgorithm::Subtract;
  case BK::Mul:
    return BinaryAlgorithm::Multiply;
  case BK::Div:
    return BinaryAlgorithm::Divide;
  case BK::Max:
    return BinaryAlgorithm::Max;
  case BK::Min:
    return BinaryAlgorithm::Min;
  case BK::Pow:
    return std::nullopt;
  }
  return std::nullopt;
}

/// An operand seen in the result's dims: its stride along each (its own
/// size and stride where it has the dim, size 1 where it is broadcast).
StridedTensor inResultDims(const TensorType &operand,
                           const TensorType &result) {
  StridedTensor view{{}, {}, TESSEL_ELEMENT_TYPE_F32};
  for (size_t d = 0; d < result.dims.size(); ++d) {
    bool has = hasDim(operand, result.dims[d]);
    view.dims.push_back(has ? result.shape[d] : 1);
    view.strides.push_back(has ? strideOf(operand, result.dims[d]) : 1);
  }
  return view;
}

#endif

} // namespace

#ifdef TESSEL_RUNTIME_HAS_KERNELS

std::optional<Kernel> buildOneDnnUnary(ref::UnaryKind kind,
                                       const OpDescriptor &desc,
                                       Kernel fallback) {
  std::optional<EltwiseAlgorithm> algorithm = eltwiseOf(kind);
  if (!algorithm || !allF32(desc) ||
      desc.operands[0].dims != desc.result.dims ||
      desc.result.numElements() == 0)
    return std::nullopt;
  return runPrepared(prepareEltwise(*algorithm, StridedTensor::rowMajor(
                                                    desc.result.shape,
                                                    TESSEL_ELEMENT_TYPE_F32)),
                     std::move(fallback));
}

// oneDNN broadcasts its second operand only, so a broadcast lhs is swapped
// to the right where the op commutes.
std::optional<Kernel> buildOneDnnBinary(ref::BinaryKind kind,
                                        const OpDescriptor &desc,
                                        Kernel fallback) {
  std::optional<BinaryAlgorithm> algorithm = binaryOf(kind);
  const TensorType &result = desc.result;
  if (!algorithm || !allF32(desc) || result.rank() == 0 ||
      result.numElements() == 0)
    return std::nullopt;
  auto isFull = [&](const TensorType &operand) {
    return operand.rank() == result.rank();
  };
  bool commutes = kind != ref::BinaryKind::Sub && kind != ref::BinaryKind::Div;
  std::vector<size_t> order = {0, 1};
  if (!isFull(desc.operands[0])) {
    if (!commutes || !isFull(desc.operands[1]))
      return std::nullopt;
    order = {1, 0};
  }
  StridedTensor src0 = inResultDims(desc.operands[order[0]], result);
  StridedTensor src1 = inResultDims(desc.operands[order[1]], result);
  StridedTensor dst =
      StridedTensor::rowMajor(result.shape, TESSEL_ELEMENT_TYPE_F32);
  return runPrepared(prepareBinary(*algorithm, src0, src1, dst),
                     std::move(fallback), order);
}

#else

std::optional<Kernel> buildOneDnnUnary(ref::UnaryKind, const OpDescriptor &,
                                       Kernel) {
  return std::nullopt;
}

std::optional<Kernel> buildOneDnnBinary(ref::BinaryKind, const OpDescriptor &,
                                        Kernel) {
  return std::nullopt;
}

#endif

std::optional<Kernel> buildFastUnary(ref::UnaryKind kind,
                                     const OpDescriptor &desc) {
  if (!allF32(desc) || desc.operands[0].dims != desc.result.dims)
    return std::nullopt;
  int64_t count = desc.result.numElements();
  Kernel loop = [kind, count](tessel_context_t &, void *const *operands,
                              void *result) {
    const float *x = static_cast<const float *>(operands[0]);
    float *y = static_cast<float *>(result);
    for (int64_t i = 0; i < count; ++i)
      y[i] = static_cast<float>(ref::applyUnary(kind, x[i]));
  };
  return buildOneDnnUnary(kind, desc, loop).value_or(loop);
}

std::optional<Kernel> buildFastBinary(ref::BinaryKind kind,
                                      const OpDescriptor &desc) {
  if (!allF32(desc))
    return std::nullopt;
  OperandWalk a(desc.operands[0], desc.result),
      b(desc.operands[1], desc.result);
  std::vector<int64_t> shape = desc.result.shape;
  int64_t count = desc.result.numElements();
  Kernel loop = [=](tessel_context_t &, void *const *operands, void *result) {
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
  };
  return buildOneDnnBinary(kind, desc, loop).value_or(loop);
}

} // namespace tessel::runtime
