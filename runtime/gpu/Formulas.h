//===- Formulas.h - The element-wise ops' values, on device and host -*- C++
//-*-//
//
// One element of each unary, binary and compare op, in double: the
// definitions of ref::applyUnary and ref::applyBinary (reference/
// Elementwise.cpp), written once for the CUDA kernels and compiled by host
// code too, so that the tests check them against the reference without a
// GPU.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_RUNTIME_GPU_FORMULAS_H
#define TESSEL_RUNTIME_GPU_FORMULAS_H

#include "gpu/Launch.h"

#include <math.h>

namespace tessel::runtime::gpu {

TESSEL_HOST_DEVICE inline double applyUnary(UnaryOp op, double x) {
  switch (op) {
  case UnaryOp::Neg:
    return -x;
  case UnaryOp::Exp:
    return exp(x);
  case UnaryOp::Log:
    return log(x);
  case UnaryOp::Sqrt:
    return sqrt(x);
  case UnaryOp::Rsqrt:
    return 1.0 / sqrt(x);
  case UnaryOp::Tanh:
    return tanh(x);
  case UnaryOp::Sigmoid:
    return 1.0 / (1.0 + exp(-x));
  case UnaryOp::Relu:
    return x > 0.0 ? x : 0.0;
  case UnaryOp::Gelu:
    return 0.5 * x * (1.0 + erf(x / sqrt(2.0)));
  case UnaryOp::Abs:
    return fabs(x);
  case UnaryOp::Erf:
    return erf(x);
  case UnaryOp::Sin:
    return sin(x);
  case UnaryOp::Cos:
    return cos(x);
  }
  return x;
}

TESSEL_HOST_DEVICE inline double applyBinary(BinaryOp op, double a, double b,
                                             bool integerResult) {
  switch (op) {
  case BinaryOp::Add:
    return a + b;
  case BinaryOp::Sub:
    return a - b;
  case BinaryOp::Mul:
    return a * b;
  case BinaryOp::Div:
    if (integerResult) {
      // Truncation toward zero; x / 0 is 0, and -1 avoids INT64_MIN / -1.
      long long denominator = static_cast<long long>(b);
      if (denominator == 0)
        return 0.0;
      if (denominator == -1)
        return -a;
      return static_cast<double>(static_cast<long long>(a) / denominator);
    }
    return a / b;
  case BinaryOp::Max:
    if (isnan(a) || isnan(b))
      return NAN;
    return a > b ? a : b;
  case BinaryOp::Min:
    if (isnan(a) || isnan(b))
      return NAN;
    return a < b ? a : b;
  case BinaryOp::Pow:
    return pow(a, b);
  }
  return a;
}

TESSEL_HOST_DEVICE inline bool applyCompare(CompareOp op, double a, double b) {
  switch (op) {
  case CompareOp::Eq:
    return a == b;
  case CompareOp::Ne:
    return a != b;
  case CompareOp::Lt:
    return a < b;
  case CompareOp::Le:
    return a <= b;
  case CompareOp::Gt:
    return a > b;
  case CompareOp::Ge:
    return a >= b;
  }
  return false;
}

} // namespace tessel::runtime::gpu

#endif // TESSEL_RUNTIME_GPU_FORMULAS_H
