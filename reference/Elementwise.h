//===- Elementwise.h - Reference elementwise kernels ------------*- C++ -*-===//
//
// Elementwise ops with broadcasting by name: each result element reads the
// operand element whose indices agree with the result's on same-named
// dimensions; an operand that lacks one of the result's dimensions is
// broadcast along it.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_REFERENCE_ELEMENTWISE_H
#define TESSEL_REFERENCE_ELEMENTWISE_H

#include "reference/Tensor.h"

namespace tessel::ref {

enum class UnaryKind {
  Neg,
  Exp,
  Log,
  Sqrt,
  Rsqrt, // 1 / sqrt(x)
  Tanh,
  Sigmoid, // 1 / (1 + exp(-x))
  Relu,    // max(x, 0)
  Gelu,    // exact erf form: 0.5 * x * (1 + erf(x / sqrt(2)))
  Abs,
  Erf,
  Sin,
  Cos,
};

enum class BinaryKind { Add, Sub, Mul, Div, Max, Min, Pow };

enum class CompareKind { Eq, Ne, Lt, Le, Gt, Ge };

/// The value of one element of a unary op, in double (before rounding to
/// the result type): the definition every kernel of the op shares.
double applyUnary(UnaryKind kind, double x);

/// The value of one element of a binary op, in double; `integerResult`
/// selects integer division.
double applyBinary(BinaryKind kind, double a, double b, bool integerResult);

/// Applies `kind` to every element; the result has x's spec.
Tensor unary(UnaryKind kind, const Tensor &x);

/// Combines a and b, broadcast by name into `resultSpec` (whose dims are the
/// union of theirs). With an integer result type Div truncates toward zero
/// and division by zero yields 0 (defined here because C leaves it
/// undefined). Max and Min propagate NaN.
Tensor binary(BinaryKind kind, const Tensor &a, const Tensor &b,
              const TensorSpec &resultSpec);

/// Compares a and b, broadcast by name; the result holds 1 or 0 and its type
/// is forced to I1 whatever `resultSpec.type` says. Comparisons with NaN are
/// false except Ne.
Tensor compare(CompareKind kind, const Tensor &a, const Tensor &b,
               const TensorSpec &resultSpec);

/// cond != 0 ? a : b, all three broadcast by name into `resultSpec`.
Tensor select(const Tensor &cond, const Tensor &a, const Tensor &b,
              const TensorSpec &resultSpec);

} // namespace tessel::ref

#endif // TESSEL_REFERENCE_ELEMENTWISE_H
