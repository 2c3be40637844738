// The gradient of top_k's values (dy scattered back to the chosen
// elements), checked against central finite differences in f64, along the
// last dim and along the first, and a top-2 gate whose loss reaches the
// input through the values and through one_hot of the indices (which have
// no gradient).
// RUN: tessel-eval %s --function last --check-gradients --seed 1 | FileCheck %s --check-prefix=LAST
// RUN: tessel-eval %s --function first --check-gradients --seed 2 | FileCheck %s --check-prefix=FIRST
// RUN: tessel-eval %s --function gate --check-gradients --seed 3 | FileCheck %s --check-prefix=GATE
// RUN: tessel-opt %s --tessel-autodiff=function=last | FileCheck %s --check-prefix=OPS

!v = !tessel.tensor<[b:3, n:5], f64>
!s = !tessel.tensor<[], f64>

// The three largest of x * w along n, weighted by their rank.
// LAST: gradient w: 15 of 15 elements checked
// LAST: gradient x: 15 of 15 elements checked
// LAST: gradient check passed
// The values' gradient: one_hot of the top_k's indices, contracted with dy.
// OPS-LABEL: func.func @train_step
// OPS: %[[I:.*]] = tessel.top_k %{{.*}} over "n" k 3 as "c" indices : !tessel.tensor<[b:3, n:5], f64> -> !tessel.tensor<[b:3, c:3], i32>
// OPS: %[[O:.*]] = tessel.one_hot %[[I]] as "n" : !tessel.tensor<[b:3, c:3], i32> -> !tessel.tensor<[b:3, c:3, n:5], f64>
// OPS: tessel.einsum %[[O]], %{{.*}} : (!tessel.tensor<[b:3, c:3, n:5], f64>, !tessel.tensor<[b:3, c:3], f64>) -> !tessel.tensor<[b:3, n:5], f64>
func.func @last(%x: !v {tessel.name = "x"}) -> !s {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !v
  %xw = tessel.mul %x, %w : !v, !v -> !v
  %t = tessel.top_k %xw over "n" k 3 as "c"
      : !v -> !tessel.tensor<[b:3, c:3], f64>
  %rank = tessel.iota "c" : !tessel.tensor<[c:3], i32>
  %rf = tessel.cast %rank : !tessel.tensor<[c:3], i32> -> !tessel.tensor<[c:3], f64>
  %one = tessel.constant 1.0 : f64 -> !s
  %scale = tessel.add %rf, %one
      : !tessel.tensor<[c:3], f64>, !tessel.tensor<[], f64> -> !tessel.tensor<[c:3], f64>
  %y = tessel.mul %t, %scale
      : !tessel.tensor<[b:3, c:3], f64>, !tessel.tensor<[c:3], f64> -> !tessel.tensor<[b:3, c:3], f64>
  %l = tessel.reduce sum %y : !tessel.tensor<[b:3, c:3], f64> -> !s
  return %l : !s
}

// Along the first dim, into a result that lists the new dim last; the
// values squared so that dy differs per element.
// FIRST: gradient x: 15 of 15 elements checked
// FIRST: gradient check passed
func.func @first(%x: !v {tessel.name = "x"}) -> !s {
  %t = tessel.top_k %x over "b" k 2 as "r"
      : !v -> !tessel.tensor<[n:5, r:2], f64>
  %sq = tessel.mul %t, %t
      : !tessel.tensor<[n:5, r:2], f64>, !tessel.tensor<[n:5, r:2], f64>
      -> !tessel.tensor<[n:5, r:2], f64>
  %l = tessel.reduce sum %sq : !tessel.tensor<[n:5, r:2], f64> -> !s
  return %l : !s
}

// A top-2 gate: softmax over experts, the two largest probabilities
// renormalised, and each expert's output (x times its weight) weighted by
// its gate through one_hot of the indices.
// GATE: gradient router: 15 of 15 elements checked
// GATE: gradient x: 15 of 15 elements checked
// GATE: gradient check passed
func.func @gate(%x: !v {tessel.name = "x"}) -> !s {
  %router = tessel.parameter "router" normal scale 1.0 seed 2 : !v
  %logits = tessel.mul %x, %router : !v, !v -> !v
  %p = tessel.softmax %logits over "n" : !v
  %g = tessel.top_k %p over "n" k 2 as "c" : !v -> !tessel.tensor<[b:3, c:2], f64>
  %i = tessel.top_k %p over "n" k 2 as "c" indices
      : !v -> !tessel.tensor<[b:3, c:2], i32>
  %sum = tessel.reduce sum %g : !tessel.tensor<[b:3, c:2], f64> -> !tessel.tensor<[b:3], f64>
  %gn = tessel.div %g, %sum
      : !tessel.tensor<[b:3, c:2], f64>, !tessel.tensor<[b:3], f64> -> !tessel.tensor<[b:3, c:2], f64>
  %o = tessel.one_hot %i as "n" : !tessel.tensor<[b:3, c:2], i32> -> !tessel.tensor<[b:3, c:2, n:5], f64>
  %dispatch = tessel.einsum %gn, %o
      : (!tessel.tensor<[b:3, c:2], f64>, !tessel.tensor<[b:3, c:2, n:5], f64>) -> !v
  %sq = tessel.mul %x, %x : !v, !v -> !v
  %y = tessel.mul %dispatch, %sq : !v, !v -> !v
  %l = tessel.reduce sum %y : !v -> !s
  return %l : !s
}
