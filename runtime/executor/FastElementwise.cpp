//===- FastElementwise.cpp - f32 element-wise ops without doubles ---------===//

#include "executor/FastElementwise.h"

#include "executor/ElementWalk.h"
#include "executor/FastKernel.h"
#include "executor/ParallelChunks.h"
#include "executor/VectorMath.h"

#ifdef TESSEL_RUNTIME_HAS_KERNELS
#include "kernels/Binary.h"
#include "kernels/Eltwise.h"
#endif

#include <algorithm>
#include <array>
#include <functional>

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

/// The loop of a comparison: C++'s comparisons fail for NaN but in `!=`,
/// the reference's rule. `Compare` is a std:: function object, so that the
/// loop holds no switch.
template <typename Compare>
Kernel comparisonLoop(std::vector<int64_t> shape,
                      std::array<OperandWalk, 2> walks) {
  return [=](tessel_context_t &, void *const *operands, void *result) {
    const float *a = static_cast<const float *>(operands[0]);
    const float *b = static_cast<const float *>(operands[1]);
    auto *y = static_cast<unsigned char *>(result);
    forEachElement(shape, walks, [&](int64_t k, const auto &offsets) {
      y[k] = Compare()(a[offsets[0]], b[offsets[1]]);
    });
  };
}

Kernel comparisonLoop(ref::CompareKind kind, std::vector<int64_t> shape,
                      std::array<OperandWalk, 2> walks) {
  switch (kind) {
  case ref::CompareKind::Eq:
    return comparisonLoop<std::equal_to<float>>(shape, walks);
  case ref::CompareKind::Ne:
    return comparisonLoop<std::not_equal_to<float>>(shape, walks);
  case ref::CompareKind::Lt:
    return comparisonLoop<std::less<float>>(shape, walks);
  case ref::CompareKind::Le:
    return comparisonLoop<std::less_equal<float>>(shape, walks);
  case ref::CompareKind::Gt:
    return comparisonLoop<std::greater<float>>(shape, walks);
  case ref::CompareKind::Ge:
    return comparisonLoop<std::greater_equal<float>>(shape, walks);
  }
  return comparisonLoop<std::equal_to<float>>(shape, walks);
}

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
  case UK::Log:  // oneDNN's is 400000 ulp off near 1.
  case UK::Gelu: // oneDNN's has no correct digit below -6.
  case UK::Erf:  // oneDNN has none.
  case UK::Sin:  // Nor sin and cos.
  case UK::Cos:
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
  StridedTensor view{{}, {}, kernelType(operand)};
  for (size_t d = 0; d < result.dims.size(); ++d) {
    bool has = hasDim(operand, result.dims[d]);
    view.dims.push_back(has ? result.shape[d] : 1);
    view.strides.push_back(has ? strideOf(operand, result.dims[d]) : 1);
  }
  return view;
}

/// The comparison that holds for (b, a) when `kind` holds for (a, b).
ref::CompareKind mirrored(ref::CompareKind kind) {
  using CK = ref::CompareKind;
  switch (kind) {
  case CK::Lt:
    return CK::Gt;
  case CK::Le:
    return CK::Ge;
  case CK::Gt:
    return CK::Lt;
  case CK::Ge:
    return CK::Le;
  default:
    return kind;
  }
}

ComparisonAlgorithm comparisonOf(ref::CompareKind kind) {
  using CK = ref::CompareKind;
  switch (kind) {
  case CK::Eq:
    return ComparisonAlgorithm::Equal;
  case CK::Ne:
    return ComparisonAlgorithm::NotEqual;
  case CK::Lt:
    return ComparisonAlgorithm::Less;
  case CK::Le:
    return ComparisonAlgorithm::LessEqual;
  case CK::Gt:
    return ComparisonAlgorithm::Greater;
  case CK::Ge:
    return ComparisonAlgorithm::GreaterEqual;
  }
  return ComparisonAlgorithm::Equal;
}

#endif

} // namespace

#ifdef TESSEL_RUNTIME_HAS_KERNELS

std::optional<Kernel> buildOneDnnUnary(ref::UnaryKind kind,
                                       const OpDescriptor &desc,
                                       Kernel fallback) {
  std::optional<EltwiseAlgorithm> algorithm = eltwiseOf(kind);
  const TensorType &x = desc.operands[0], &y = desc.result;
  if (!algorithm || !allOfKernelType({&x, &y}) || x.dims != y.dims ||
      y.numElements() == 0)
    return std::nullopt;
  return runPrepared(prepareEltwise(*algorithm, StridedTensor::rowMajor(
                                                    y.shape, kernelType(y))),
                     std::move(fallback));
}

// oneDNN broadcasts its second operand only, so a broadcast lhs is swapped
// to the right where the op commutes.
std::optional<Kernel> buildOneDnnBinary(ref::BinaryKind kind,
                                        const OpDescriptor &desc,
                                        Kernel fallback) {
  std::optional<BinaryAlgorithm> algorithm = binaryOf(kind);
  const TensorType &result = desc.result;
  if (!algorithm ||
      !allOfKernelType({&desc.operands[0], &desc.operands[1], &result}) ||
      result.rank() == 0 || result.numElements() == 0)
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
  StridedTensor dst = StridedTensor::rowMajor(result.shape, kernelType(result));
  return runPrepared(prepareBinary(*algorithm, src0, src1, dst),
                     std::move(fallback), order);
}

// oneDNN broadcasts its second operand only, and its gt and ge hold for
// NaN (they are "not less-or-equal" and "not less"), where the dialect's
// fail; its eq, ne, lt and le agree with the dialect. So a full operand
// goes first, and the comparison must be eq, ne, lt or le in that order:
// gt and ge become lt and le with the operands swapped, which needs a full
// rhs, and lt and le cannot take a broadcast lhs.
std::optional<Kernel> buildOneDnnCompare(ref::CompareKind kind,
                                         const OpDescriptor &desc,
                                         Kernel fallback) {
  const TensorType &result = desc.result;
  if (desc.operands.size() != 2 || result.type != ref::ElementType::I1 ||
      result.rank() == 0 || result.numElements() == 0)
    return std::nullopt;
  for (const TensorType &operand : desc.operands)
    if (operand.type != ref::ElementType::F32)
      return std::nullopt;
  auto isFull = [&](size_t operand) {
    return desc.operands[operand].rank() == result.rank();
  };
  auto agreesOnNaN = [](ref::CompareKind k) {
    return k != ref::CompareKind::Gt && k != ref::CompareKind::Ge;
  };
  std::vector<size_t> order = {0, 1};
  if (!isFull(0) || !agreesOnNaN(kind)) {
    if (!isFull(1) || !agreesOnNaN(mirrored(kind)))
      return std::nullopt;
    order = {1, 0};
    kind = mirrored(kind);
  }
  StridedTensor src0 = inResultDims(desc.operands[order[0]], result);
  StridedTensor src1 = inResultDims(desc.operands[order[1]], result);
  StridedTensor dst =
      StridedTensor::rowMajor(result.shape, TESSEL_ELEMENT_TYPE_F32);
  return runPrepared(prepareComparison(comparisonOf(kind), src0, src1, dst),
                     std::move(fallback), order);
}

#else

std::optional<Kernel> buildOneDnnCompare(ref::CompareKind, const OpDescriptor &,
                                         Kernel) {
  return std::nullopt;
}

std::optional<Kernel> buildOneDnnUnary(ref::UnaryKind, const OpDescriptor &,
                                       Kernel) {
  return std::nullopt;
}

std::optional<Kernel> buildOneDnnBinary(ref::BinaryKind, const OpDescriptor &,
                                        Kernel) {
  return std::nullopt;
}

#endif

/// The f32 unary ops that oneDNN lacks or is inaccurate for, on whole
/// arrays through VectorMath: log, erf, sin, cos and GELU (applyGelu).
std::optional<Kernel> vectorUnary(ref::UnaryKind kind, int64_t count) {
  using UK = ref::UnaryKind;
  if (kind != UK::Log && kind != UK::Erf && kind != UK::Gelu &&
      kind != UK::Sin && kind != UK::Cos)
    return std::nullopt;
  return Kernel([kind, count](tessel_context_t &, void *const *operands,
                              void *result) {
    const float *x = static_cast<const float *>(operands[0]);
    float *y = static_cast<float *>(result);
    inChunks(count, [&](int64_t begin, int64_t end) {
      const float *from = x + begin;
      float *to = y + begin;
      int64_t n = end - begin;
      if (kind == UK::Log)
        return applyVectorFunction(VectorFunction::Log, from, to, n);
      if (kind == UK::Erf)
        return applyVectorFunction(VectorFunction::Erf, from, to, n);
      if (kind == UK::Sin)
        return applyVectorFunction(VectorFunction::Sin, from, to, n);
      if (kind == UK::Cos)
        return applyVectorFunction(VectorFunction::Cos, from, to, n);
      applyGelu(from, to, n);
    });
  });
}

std::optional<Kernel> buildFastUnary(ref::UnaryKind kind,
                                     const OpDescriptor &desc) {
  if (!allF32(desc) || desc.operands[0].dims != desc.result.dims)
    return std::nullopt;
  int64_t count = desc.result.numElements();
  if (std::optional<Kernel> vector = vectorUnary(kind, count))
    return vector;
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
  std::array<OperandWalk, 2> walks = {
      OperandWalk(desc.operands[0], desc.result),
      OperandWalk(desc.operands[1], desc.result)};
  std::vector<int64_t> shape = desc.result.shape;
  Kernel loop = [=](tessel_context_t &, void *const *operands, void *result) {
    const float *a = static_cast<const float *>(operands[0]);
    const float *b = static_cast<const float *>(operands[1]);
    float *y = static_cast<float *>(result);
    forEachElement(shape, walks, [&](int64_t k, const auto &offsets) {
      y[k] = static_cast<float>(ref::applyBinary(
          kind, a[offsets[0]], b[offsets[1]], /*integerResult=*/false));
    });
  };
  return buildOneDnnBinary(kind, desc, loop).value_or(loop);
}

/// select over operands in the result's layout or scalars: a loop with
/// the steps fixed at compile time and no branch on the condition, which
/// the compiler vectorizes (relu's gradient selects between a tensor and
/// the scalar 0 on a condition that is true half the time).
template <bool ScalarA, bool ScalarB>
Kernel denseSelect(int64_t count) {
  return [count](tessel_context_t &, void *const *operands, void *result) {
    const auto *condition = static_cast<const unsigned char *>(operands[0]);
    const float *a = static_cast<const float *>(operands[1]);
    const float *b = static_cast<const float *>(operands[2]);
    float *y = static_cast<float *>(result);
    for (int64_t k = 0; k < count; ++k) {
      float whenTrue = a[ScalarA ? 0 : k], whenFalse = b[ScalarB ? 0 : k];
      y[k] = condition[k] ? whenTrue : whenFalse;
    }
  };
}

std::optional<Kernel> buildFastSelect(const OpDescriptor &desc) {
  if (desc.operands.size() != 3 ||
      desc.operands[0].type != ref::ElementType::I1 ||
      desc.operands[1].type != ref::ElementType::F32 ||
      desc.operands[2].type != ref::ElementType::F32 ||
      desc.result.type != ref::ElementType::F32)
    return std::nullopt;
  std::array<OperandWalk, 3> walks = {
      OperandWalk(desc.operands[0], desc.result),
      OperandWalk(desc.operands[1], desc.result),
      OperandWalk(desc.operands[2], desc.result)};
  if (walks[0].sameLayout &&
      (walks[1].sameLayout || walks[1].scalar) &&
      (walks[2].sameLayout || walks[2].scalar)) {
    int64_t count = desc.result.numElements();
    bool scalarA = !walks[1].sameLayout, scalarB = !walks[2].sameLayout;
    if (scalarA)
      return scalarB ? denseSelect<true, true>(count)
                     : denseSelect<true, false>(count);
    return scalarB ? denseSelect<false, true>(count)
                   : denseSelect<false, false>(count);
  }
  std::vector<int64_t> shape = desc.result.shape;
  return Kernel([=](tessel_context_t &, void *const *operands, void *result) {
    // i1 is one byte per element, 0 or 1.
    const auto *condition = static_cast<const unsigned char *>(operands[0]);
    const float *a = static_cast<const float *>(operands[1]);
    const float *b = static_cast<const float *>(operands[2]);
    float *y = static_cast<float *>(result);
    forEachElement(shape, walks, [&](int64_t k, const auto &offsets) {
      y[k] = condition[offsets[0]] ? a[offsets[1]] : b[offsets[2]];
    });
  });
}

std::optional<Kernel> buildFastCompare(ref::CompareKind kind,
                                       const OpDescriptor &desc) {
  if (desc.operands.size() != 2 ||
      desc.operands[0].type != ref::ElementType::F32 ||
      desc.operands[1].type != ref::ElementType::F32 ||
      desc.result.type != ref::ElementType::I1)
    return std::nullopt;
  std::array<OperandWalk, 2> walks = {
      OperandWalk(desc.operands[0], desc.result),
      OperandWalk(desc.operands[1], desc.result)};
  Kernel loop = comparisonLoop(kind, desc.result.shape, walks);
  return buildOneDnnCompare(kind, desc, loop).value_or(loop);
}

} // namespace tessel::runtime
