// The gradients of contractions, reductions, normalisations, lookups and
// shape ops, checked against central finite differences in f64.
// RUN: tessel-eval %s --function contraction --check-gradients --seed 1 | FileCheck %s --check-prefix=EINSUM
// RUN: tessel-eval %s --function reductions --check-gradients --seed 2 | FileCheck %s --check-prefix=REDUCE
// RUN: tessel-eval %s --function normalisations --check-gradients --seed 3 | FileCheck %s --check-prefix=NORM
// RUN: tessel-eval %s --function cross_entropy --check-gradients --seed 4 | FileCheck %s --check-prefix=XENT
// RUN: tessel-eval %s --function lookup --check-gradients --seed 5 | FileCheck %s --check-prefix=GATHER
// RUN: tessel-eval %s --function shapes --check-gradients --seed 6 | FileCheck %s --check-prefix=SHAPES

!s = !tessel.tensor<[], f64>

// A three-input einsum in which `k` is contracted, `m` appears in one input
// only (summed inside it, so its gradient is a broadcast) and `a` is used
// twice (its gradients add up).
// EINSUM: gradient a: 6 of 6
// EINSUM: gradient b: 12 of 12
// EINSUM: gradient c: 8 of 8
// EINSUM: gradient check passed
func.func @contraction(%a: !tessel.tensor<[i:2, k:3], f64> {tessel.name = "a"},
                       %b: !tessel.tensor<[k:3, j:2, m:2], f64> {tessel.name = "b"},
                       %c: !tessel.tensor<[i:2, j:2, p:2], f64> {tessel.name = "c"}) -> !s {
  %y = tessel.einsum %a, %b, %c
      : (!tessel.tensor<[i:2, k:3], f64>, !tessel.tensor<[k:3, j:2, m:2], f64>,
         !tessel.tensor<[i:2, j:2, p:2], f64>) -> !tessel.tensor<[j:2, i:2], f64>
  %z = tessel.einsum %y, %a
      : (!tessel.tensor<[j:2, i:2], f64>, !tessel.tensor<[i:2, k:3], f64>)
      -> !tessel.tensor<[k:3], f64>
  %zz = tessel.mul %z, %z : !tessel.tensor<[k:3], f64>, !tessel.tensor<[k:3], f64>
      -> !tessel.tensor<[k:3], f64>
  %l = tessel.reduce sum %zz : !tessel.tensor<[k:3], f64> -> !s
  return %l : !s
}

// REDUCE: gradient x: 12 of 12
// REDUCE: gradient check passed
func.func @reductions(%x: !tessel.tensor<[b:3, n:4], f64> {tessel.name = "x"},
                      %w: !tessel.tensor<[b:3], f64> {tessel.name = "w"}) -> !s {
  %sum = tessel.reduce sum %x : !tessel.tensor<[b:3, n:4], f64> -> !tessel.tensor<[b:3], f64>
  %mean = tessel.reduce mean %x : !tessel.tensor<[b:3, n:4], f64> -> !tessel.tensor<[b:3], f64>
  %max = tessel.reduce max %x : !tessel.tensor<[b:3, n:4], f64> -> !tessel.tensor<[b:3], f64>
  %min = tessel.reduce min %x : !tessel.tensor<[b:3, n:4], f64> -> !tessel.tensor<[b:3], f64>
  %prod = tessel.reduce prod %x : !tessel.tensor<[b:3, n:4], f64> -> !tessel.tensor<[b:3], f64>
  %a = tessel.mul %sum, %mean : !tessel.tensor<[b:3], f64>, !tessel.tensor<[b:3], f64> -> !tessel.tensor<[b:3], f64>
  %c = tessel.add %a, %max : !tessel.tensor<[b:3], f64>, !tessel.tensor<[b:3], f64> -> !tessel.tensor<[b:3], f64>
  %d = tessel.sub %c, %min : !tessel.tensor<[b:3], f64>, !tessel.tensor<[b:3], f64> -> !tessel.tensor<[b:3], f64>
  %e = tessel.add %d, %prod : !tessel.tensor<[b:3], f64>, !tessel.tensor<[b:3], f64> -> !tessel.tensor<[b:3], f64>
  %y = tessel.mul %e, %w : !tessel.tensor<[b:3], f64>, !tessel.tensor<[b:3], f64> -> !tessel.tensor<[b:3], f64>
  %l = tessel.reduce sum %y : !tessel.tensor<[b:3], f64> -> !s
  return %l : !s
}

!m = !tessel.tensor<[b:2, n:5, c:3], f64>
// NORM: gradient x: 16 of 30
// NORM: gradient check passed
func.func @normalisations(%x: !m {tessel.name = "x"}, %w: !m {tessel.name = "w"}) -> !s {
  %a = tessel.softmax %x over "n" : !m
  %b = tessel.log_softmax %x over "c" : !m
  %c = tessel.layer_norm %x over ["n", "c"] epsilon 1.0e-03 : !m
  %ab = tessel.add %a, %b : !m, !m -> !m
  %abc = tessel.add %ab, %c : !m, !m -> !m
  %y = tessel.mul %abc, %w : !m, !m -> !m
  %l = tessel.reduce sum %y : !m -> !s
  return %l : !s
}

// The labels are integers: only the logits get a gradient.
// XENT: gradient logits: 16 of 24
// XENT-NOT: gradient labels
// XENT: gradient check passed
func.func @cross_entropy(%logits: !tessel.tensor<[b:4, classes:6], f64> {tessel.name = "logits"},
                         %labels: !tessel.tensor<[b:4], i32> {tessel.name = "labels"},
                         %w: !tessel.tensor<[b:4], f64> {tessel.name = "w"}) -> !s {
  %x = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !tessel.tensor<[b:4, classes:6], f64>, !tessel.tensor<[b:4], i32>
      -> !tessel.tensor<[b:4], f64>
  %y = tessel.mul %x, %w : !tessel.tensor<[b:4], f64>, !tessel.tensor<[b:4], f64>
      -> !tessel.tensor<[b:4], f64>
  %l = tessel.reduce mean %y : !tessel.tensor<[b:4], f64> -> !s
  return %l : !s
}

// Rows looked up several times add up their gradients.
// GATHER: gradient table: 16 of 24
// GATHER: gradient check passed
func.func @lookup(%table: !tessel.tensor<[vocab:6, d:4], f64> {tessel.name = "table"},
                  %ids: !tessel.tensor<[b:2, t:5], i32> {tessel.name = "ids"},
                  %w: !tessel.tensor<[b:2, t:5, d:4], f64> {tessel.name = "w"}) -> !s {
  %e = tessel.gather %table[%ids] over "vocab"
      : !tessel.tensor<[vocab:6, d:4], f64>, !tessel.tensor<[b:2, t:5], i32>
      -> !tessel.tensor<[b:2, t:5, d:4], f64>
  %y = tessel.mul %e, %w : !tessel.tensor<[b:2, t:5, d:4], f64>,
      !tessel.tensor<[b:2, t:5, d:4], f64> -> !tessel.tensor<[b:2, t:5, d:4], f64>
  %l = tessel.reduce sum %y : !tessel.tensor<[b:2, t:5, d:4], f64> -> !s
  return %l : !s
}

// rename, reshape, transpose, slice, concat, pad and broadcast.
// SHAPES: gradient x: 12 of 12
// SHAPES: gradient check passed
func.func @shapes(%x: !tessel.tensor<[a:2, b:6], f64> {tessel.name = "x"},
                  %w: !tessel.tensor<[c:3, a:2, d:2, e:4], f64> {tessel.name = "w"}) -> !s {
  %r = tessel.rename %x : !tessel.tensor<[a:2, b:6], f64> -> !tessel.tensor<[a:2, f:6], f64>
  %h = tessel.reshape %r : !tessel.tensor<[a:2, f:6], f64> -> !tessel.tensor<[a:2, c:3, d:2], f64>
  %t = tessel.transpose %h : !tessel.tensor<[a:2, c:3, d:2], f64> -> !tessel.tensor<[c:3, a:2, d:2], f64>
  %s = tessel.slice %t {dims = ["c"], starts = array<i64: 1>}
      : !tessel.tensor<[c:3, a:2, d:2], f64> -> !tessel.tensor<[c:2, a:2, d:2], f64>
  %j = tessel.concat %s, %t over "c"
      : (!tessel.tensor<[c:2, a:2, d:2], f64>, !tessel.tensor<[c:3, a:2, d:2], f64>)
      -> !tessel.tensor<[c:5, a:2, d:2], f64>
  %p = tessel.pad %j {dims = ["c"], low = array<i64: 0>, high = array<i64: 1>}
      : !tessel.tensor<[c:5, a:2, d:2], f64> -> !tessel.tensor<[c:6, a:2, d:2], f64>
  %q = tessel.slice %p {dims = ["c"], starts = array<i64: 2>}
      : !tessel.tensor<[c:6, a:2, d:2], f64> -> !tessel.tensor<[c:3, a:2, d:2], f64>
  %bc = tessel.broadcast %q : !tessel.tensor<[c:3, a:2, d:2], f64>
      -> !tessel.tensor<[c:3, a:2, d:2, e:4], f64>
  %y = tessel.mul %bc, %w : !tessel.tensor<[c:3, a:2, d:2, e:4], f64>,
      !tessel.tensor<[c:3, a:2, d:2, e:4], f64> -> !tessel.tensor<[c:3, a:2, d:2, e:4], f64>
  %l = tessel.reduce sum %y : !tessel.tensor<[c:3, a:2, d:2, e:4], f64> -> !s
  return %l : !s
}
