// The gradients of sin, cos and cumsum, checked against central finite
// differences in f64, and a model that uses argmax (which has no gradient)
// where the loss reaches it only through an integer path.
// RUN: tessel-eval %s --function trigonometric --check-gradients --seed 1 | FileCheck %s --check-prefix=TRIG
// RUN: tessel-eval %s --function scans --check-gradients --seed 2 | FileCheck %s --check-prefix=SCANS
// RUN: tessel-eval %s --function predicted --check-gradients --seed 3 | FileCheck %s --check-prefix=ARGMAX
// RUN: tessel-opt %s --tessel-autodiff=function=scans | FileCheck %s --check-prefix=OPS

!v = !tessel.tensor<[b:3, n:5], f64>
!s = !tessel.tensor<[], f64>

// A rotary-style mix: x sin(p) + y cos(p), with the angles p trained too.
// TRIG: gradient p: 15 of 15 elements checked
// TRIG: gradient x: 15 of 15 elements checked
// TRIG: gradient y: 15 of 15 elements checked
// TRIG: gradient check passed
func.func @trigonometric(%p: !v {tessel.name = "p"}, %x: !v {tessel.name = "x"},
                         %y: !v {tessel.name = "y"}) -> !s {
  %s = tessel.sin %p : !v
  %c = tessel.cos %p : !v
  %a = tessel.mul %x, %s : !v, !v -> !v
  %b = tessel.mul %y, %c : !v, !v -> !v
  %t = tessel.add %a, %b : !v, !v -> !v
  %l = tessel.reduce sum %t : !v -> !s
  return %l : !s
}

// Prefix and suffix sums along n and b of x times a trained w, multiplied
// together, so that every element counts.
// SCANS: gradient w: 15 of 15 elements checked
// SCANS: gradient x: 15 of 15 elements checked
// SCANS: gradient check passed
// The gradient of a cumsum is the cumsum of dy the other way.
// OPS-LABEL: func.func @train_step
// OPS-DAG: tessel.cumsum %{{.*}} over "n" reverse : !tessel.tensor<[b:3, n:5], f64>
// OPS-DAG: tessel.cumsum %{{.*}} over "b" : !tessel.tensor<[b:3, n:5], f64>
func.func @scans(%x: !v {tessel.name = "x"}) -> !s {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !v
  %xw = tessel.mul %x, %w : !v, !v -> !v
  %c = tessel.cumsum %xw over "n" : !v
  %r = tessel.cumsum %c over "b" reverse : !v
  %y = tessel.mul %r, %c : !v, !v -> !v
  %l = tessel.reduce sum %y : !v -> !s
  return %l : !s
}

// The predicted class picks which logit counts (through one_hot): the loss
// is piecewise differentiable in the logits, and argmax needs no gradient.
// ARGMAX: gradient logits: 15 of 15 elements checked
// ARGMAX: gradient check passed
func.func @predicted(%logits: !v {tessel.name = "logits"}) -> !s {
  %k = tessel.argmax %logits over "n" : !v -> !tessel.tensor<[b:3], i32>
  %o = tessel.one_hot %k as "n" : !tessel.tensor<[b:3], i32> -> !v
  %m = tessel.mul %o, %logits : !v, !v -> !v
  %e = tessel.exp %m : !v
  %l = tessel.reduce sum %e : !v -> !s
  return %l : !s
}
