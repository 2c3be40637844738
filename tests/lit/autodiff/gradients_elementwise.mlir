// The gradient of every element-wise op, checked against central finite
// differences in f64 by the reference evaluator. Each function returns
// sum(op(...) * w) for a random weight tensor w, so that every element of
// the op's result counts with its own weight.
// RUN: tessel-eval %s --function unary --check-gradients --seed 1 | FileCheck %s --check-prefix=UNARY
// RUN: tessel-eval %s --function positive --check-gradients --seed 2 | FileCheck %s --check-prefix=POSITIVE
// RUN: tessel-eval %s --function binary --check-gradients --seed 3 | FileCheck %s --check-prefix=BINARY
// RUN: tessel-eval %s --function extrema --check-gradients --seed 4 | FileCheck %s --check-prefix=EXTREMA
// RUN: tessel-eval %s --function power --check-gradients --seed 5 | FileCheck %s --check-prefix=POWER
// RUN: tessel-eval %s --function selection --check-gradients --seed 6 | FileCheck %s --check-prefix=SELECT
// RUN: tessel-eval %s --function cast --check-gradients --seed 7 --gradient-step 1e-2 --gradient-tolerance 1e-4 | FileCheck %s --check-prefix=CAST

!v = !tessel.tensor<[b:3, n:4], f64>
!row = !tessel.tensor<[n:4], f64>
!s = !tessel.tensor<[], f64>

// UNARY: gradient x: 12 of 12 elements checked
// UNARY: gradient w: 12 of 12 elements checked
// UNARY: gradient check passed
func.func @unary(%x: !v {tessel.name = "x"}, %w: !v {tessel.name = "w"}) -> !s {
  %a = tessel.neg %x : !v
  %b = tessel.abs %x : !v
  %c = tessel.exp %x : !v
  %d = tessel.tanh %x : !v
  %e = tessel.sigmoid %x : !v
  %f = tessel.relu %x : !v
  %g = tessel.gelu %x : !v
  %h = tessel.erf %x : !v
  %s1 = tessel.add %a, %b : !v, !v -> !v
  %s2 = tessel.add %s1, %c : !v, !v -> !v
  %s3 = tessel.add %s2, %d : !v, !v -> !v
  %s4 = tessel.mul %s3, %e : !v, !v -> !v
  %s5 = tessel.add %s4, %f : !v, !v -> !v
  %s6 = tessel.add %s5, %g : !v, !v -> !v
  %s7 = tessel.add %s6, %h : !v, !v -> !v
  %y = tessel.mul %s7, %w : !v, !v -> !v
  %l = tessel.reduce sum %y : !v -> !s
  return %l : !s
}

// log, sqrt and rsqrt on 1 + x^2, which is positive.
// POSITIVE: gradient x: 12 of 12
// POSITIVE: gradient check passed
func.func @positive(%x: !v {tessel.name = "x"}, %w: !v {tessel.name = "w"}) -> !s {
  %one = tessel.constant 1.0 : f64 -> !s
  %sq = tessel.mul %x, %x : !v, !v -> !v
  %p = tessel.add %sq, %one : !v, !s -> !v
  %a = tessel.log %p : !v
  %b = tessel.sqrt %p : !v
  %c = tessel.rsqrt %p : !v
  %ab = tessel.add %a, %b : !v, !v -> !v
  %abc = tessel.mul %ab, %c : !v, !v -> !v
  %y = tessel.mul %abc, %w : !v, !v -> !v
  %l = tessel.reduce sum %y : !v -> !s
  return %l : !s
}

// Broadcasting by name: r has only `n`, so its gradient sums over `b`.
// BINARY: gradient x: 12 of 12
// BINARY: gradient r: 4 of 4
// BINARY: gradient check passed
func.func @binary(%x: !v {tessel.name = "x"}, %r: !row {tessel.name = "r"},
                  %w: !v {tessel.name = "w"}) -> !s {
  %two = tessel.constant 2.0 : f64 -> !s
  %rr = tessel.mul %r, %r : !row, !row -> !row
  %d = tessel.add %rr, %two : !row, !s -> !row
  %a = tessel.add %x, %r : !v, !row -> !v
  %b = tessel.sub %r, %x : !row, !v -> !v
  %c = tessel.mul %a, %b : !v, !v -> !v
  %q = tessel.div %c, %d : !v, !row -> !v
  %t = tessel.transpose %q : !v -> !tessel.tensor<[n:4, b:3], f64>
  %y = tessel.mul %t, %w : !tessel.tensor<[n:4, b:3], f64>, !v -> !v
  %l = tessel.reduce sum %y : !v -> !s
  return %l : !s
}

// EXTREMA: gradient x: 12 of 12
// EXTREMA: gradient r: 4 of 4
// EXTREMA: gradient check passed
func.func @extrema(%x: !v {tessel.name = "x"}, %r: !row {tessel.name = "r"},
                   %w: !v {tessel.name = "w"}) -> !s {
  %a = tessel.max %x, %r : !v, !row -> !v
  %b = tessel.min %x, %r : !v, !row -> !v
  %c = tessel.mul %a, %b : !v, !v -> !v
  %y = tessel.mul %c, %w : !v, !v -> !v
  %l = tessel.reduce sum %y : !v -> !s
  return %l : !s
}

// (1 + x^2) ^ r, with both operands differentiated.
// POWER: gradient x: 12 of 12
// POWER: gradient r: 4 of 4
// POWER: gradient check passed
func.func @power(%x: !v {tessel.name = "x"}, %r: !row {tessel.name = "r"},
                 %w: !v {tessel.name = "w"}) -> !s {
  %one = tessel.constant 1.0 : f64 -> !s
  %sq = tessel.mul %x, %x : !v, !v -> !v
  %p = tessel.add %sq, %one : !v, !s -> !v
  %a = tessel.pow %p, %r : !v, !row -> !v
  %y = tessel.mul %a, %w : !v, !v -> !v
  %l = tessel.reduce sum %y : !v -> !s
  return %l : !s
}

// The condition gets no gradient; each branch gets it where it is chosen.
// SELECT: gradient x: 12 of 12
// SELECT: gradient r: 4 of 4
// SELECT: gradient check passed
func.func @selection(%x: !v {tessel.name = "x"}, %r: !row {tessel.name = "r"},
                     %w: !v {tessel.name = "w"}) -> !s {
  %c = tessel.compare gt, %x, %r : !v, !row -> !tessel.tensor<[b:3, n:4], i1>
  %e = tessel.exp %x : !v
  %a = tessel.select %c, %e, %r : !tessel.tensor<[b:3, n:4], i1>, !v, !row -> !v
  %y = tessel.mul %a, %w : !v, !v -> !v
  %l = tessel.reduce sum %y : !v -> !s
  return %l : !s
}

// The gradient of a cast goes back to the input's precision.
// CAST: gradient x: 12 of 12
// CAST: gradient check passed
func.func @cast(%x: !tessel.tensor<[b:3, n:4], f32> {tessel.name = "x"},
                %w: !v {tessel.name = "w"}) -> !s {
  %c = tessel.cast %x : !tessel.tensor<[b:3, n:4], f32> -> !v
  %sq = tessel.mul %c, %c : !v, !v -> !v
  %y = tessel.mul %sq, %w : !v, !v -> !v
  %l = tessel.reduce sum %y : !v -> !s
  return %l : !s
}
