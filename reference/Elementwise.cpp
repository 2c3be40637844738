//===- Elementwise.cpp - Reference elementwise kernels --------------------===//

#include "reference/Elementwise.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace tessel::ref {

double applyUnary(UnaryKind kind, double x) {
  switch (kind) {
  case UnaryKind::Neg:
    return -x;
  case UnaryKind::Exp:
    return std::exp(x);
  case UnaryKind::Log:
    return std::log(x);
  case UnaryKind::Sqrt:
    return std::sqrt(x);
  case UnaryKind::Rsqrt:
    return 1.0 / std::sqrt(x);
  case UnaryKind::Tanh:
    return std::tanh(x);
  case UnaryKind::Sin:
    return std::sin(x);
  case UnaryKind::Cos:
    return std::cos(x);
  case UnaryKind::Sigmoid:
    return 1.0 / (1.0 + std::exp(-x));
  case UnaryKind::Relu:
    return x > 0.0 ? x : 0.0;
  case UnaryKind::Gelu:
    return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
  case UnaryKind::Abs:
    return std::fabs(x);
  case UnaryKind::Erf:
    return std::erf(x);
  }
  return x;
}

Tensor unary(UnaryKind kind, const Tensor &x) {
  Tensor result(x.spec);
  for (int64_t i = 0, e = x.numElements(); i < e; ++i)
    result.data[i] = roundToType(applyUnary(kind, x.data[i]), x.spec.type);
  return result;
}

double applyBinary(BinaryKind kind, double a, double b, bool integerResult) {
  switch (kind) {
  case BinaryKind::Add:
    return a + b;
  case BinaryKind::Sub:
    return a - b;
  case BinaryKind::Mul:
    return a * b;
  case BinaryKind::Div:
    if (integerResult) {
      // Integer operands are already integral, so int64 division gives C's
      // truncation toward zero exactly.
      auto numerator = static_cast<int64_t>(a);
      auto denominator = static_cast<int64_t>(b);
      if (denominator == 0)
        return 0.0;
      if (denominator == -1)
        return -a; // Avoids the overflow of INT64_MIN / -1.
      return static_cast<double>(numerator / denominator);
    }
    return a / b;
  case BinaryKind::Max:
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    return a > b ? a : b;
  case BinaryKind::Min:
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    return a < b ? a : b;
  case BinaryKind::Pow:
    return std::pow(a, b);
  }
  return a;
}

Tensor binary(BinaryKind kind, const Tensor &a, const Tensor &b,
              const TensorSpec &resultSpec) {
  Tensor result(resultSpec);
  NamedIndexMap mapA(resultSpec.dims, resultSpec.shape, a.spec);
  NamedIndexMap mapB(resultSpec.dims, resultSpec.shape, b.spec);
  bool integerResult = isIntegerType(resultSpec.type);
  int64_t flat = 0;
  forEachIndex(resultSpec.shape, [&](const std::vector<int64_t> &index) {
    double value = applyBinary(kind, a.data[mapA.offset(index)],
                               b.data[mapB.offset(index)], integerResult);
    result.data[flat++] = roundToType(value, resultSpec.type);
  });
  return result;
}

static bool applyCompare(CompareKind kind, double a, double b) {
  switch (kind) {
  case CompareKind::Eq:
    return a == b;
  case CompareKind::Ne:
    return a != b;
  case CompareKind::Lt:
    return a < b;
  case CompareKind::Le:
    return a <= b;
  case CompareKind::Gt:
    return a > b;
  case CompareKind::Ge:
    return a >= b;
  }
  return false;
}

Tensor compare(CompareKind kind, const Tensor &a, const Tensor &b,
               const TensorSpec &resultSpec) {
  TensorSpec boolSpec = resultSpec;
  boolSpec.type = ElementType::I1;
  Tensor result(boolSpec);
  NamedIndexMap mapA(boolSpec.dims, boolSpec.shape, a.spec);
  NamedIndexMap mapB(boolSpec.dims, boolSpec.shape, b.spec);
  int64_t flat = 0;
  forEachIndex(boolSpec.shape, [&](const std::vector<int64_t> &index) {
    bool holds = applyCompare(kind, a.data[mapA.offset(index)],
                              b.data[mapB.offset(index)]);
    result.data[flat++] = holds ? 1.0 : 0.0;
  });
  return result;
}

Tensor select(const Tensor &cond, const Tensor &a, const Tensor &b,
              const TensorSpec &resultSpec) {
  Tensor result(resultSpec);
  NamedIndexMap mapCond(resultSpec.dims, resultSpec.shape, cond.spec);
  NamedIndexMap mapA(resultSpec.dims, resultSpec.shape, a.spec);
  NamedIndexMap mapB(resultSpec.dims, resultSpec.shape, b.spec);
  int64_t flat = 0;
  forEachIndex(resultSpec.shape, [&](const std::vector<int64_t> &index) {
    double value = cond.data[mapCond.offset(index)] != 0.0
                       ? a.data[mapA.offset(index)]
                       : b.data[mapB.offset(index)];
    result.data[flat++] = roundToType(value, resultSpec.type);
  });
  return result;
}

} // namespace tessel::ref
