// The gradients of tessel.dropout (the same mask, fixed by seed and step, on
// the result's gradient) and of grouped and depthwise convolutions, checked
// against central finite differences in f64.
// RUN: tessel-eval %s --function dropout --check-gradients --seed 1 | FileCheck %s --check-prefix=DROP
// RUN: tessel-eval %s --function grouped --check-gradients --seed 2 --gradient-samples 60 | FileCheck %s --check-prefix=GROUPED
// RUN: tessel-eval %s --function depthwise --check-gradients --seed 3 --gradient-samples 60 | FileCheck %s --check-prefix=DEPTHWISE
// RUN: tessel-opt %s --tessel-autodiff=function=dropout | FileCheck %s --check-prefix=OPS
// RUN: tessel-opt %s --tessel-autodiff=function=grouped | FileCheck %s --check-prefix=GOPS

!v = !tessel.tensor<[b:3, n:5], f64>
!s = !tessel.tensor<[], f64>
!i = !tessel.tensor<[], i64>

// DROP: gradient x: 15 of 15 elements checked
// DROP: gradient check passed
// The step is an input of @train_step, and the gradient is the same
// dropout (seed, step, rate) of dy.
// OPS-LABEL: func.func @train_step
// OPS-SAME: %{{.*}}: !tessel.tensor<[], i64> {tessel.name = "dropout_step"}
// OPS: tessel.dropout %{{.*}} step %[[STEP:.*]] rate 4.000000e-01 seed 9 : !tessel.tensor<[b:3, n:5], f64>
// OPS: tessel.dropout %{{.*}} step %[[STEP]] rate 4.000000e-01 seed 9 : !tessel.tensor<[b:3, n:5], f64>
func.func @dropout(%x: !v {tessel.name = "x"}, %step: !i {tessel.name = "dropout_step"}) -> !s {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !v
  %xw = tessel.mul %x, %w : !v, !v -> !v
  %d = tessel.dropout %xw step %step rate 0.4 seed 9 : !v, !i
  %t = tessel.tanh %d : !v
  %l = tessel.reduce sum %t : !v -> !s
  return %l : !s
}

// 2 groups: 4 channels, 6 outputs, the filter's channel of size 2.
// GROUPED: gradient k: 60 of 72
// GROUPED: gradient x: 60 of 100
// GROUPED: gradient check passed
// GOPS-LABEL: func.func @train_step
// GOPS: tessel.conv2d_backward_filter {{.*}}groups = 2
// GOPS-SAME: -> !tessel.tensor<[c:2, f:6, kh:3, kw:2], f64>
func.func @grouped(%x: !tessel.tensor<[n:1, c:4, h:5, w:5], f64> {tessel.name = "x"},
                   %w: !tessel.tensor<[n:1, f:6, h:3, w:5], f64> {tessel.name = "w"}) -> !s {
  %k = tessel.parameter "k" normal scale 0.5 seed 1 : !tessel.tensor<[c:2, f:6, kh:3, kw:2], f64>
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"],
                             strides = array<i64: 2, 1>,
                             padding = array<i64: 1, 1, 0, 1>, groups = 2}
      : !tessel.tensor<[n:1, c:4, h:5, w:5], f64>, !tessel.tensor<[c:2, f:6, kh:3, kw:2], f64>
      -> !tessel.tensor<[n:1, f:6, h:3, w:5], f64>
  %z = tessel.mul %y, %w : !tessel.tensor<[n:1, f:6, h:3, w:5], f64>,
      !tessel.tensor<[n:1, f:6, h:3, w:5], f64> -> !tessel.tensor<[n:1, f:6, h:3, w:5], f64>
  %t = tessel.tanh %z : !tessel.tensor<[n:1, f:6, h:3, w:5], f64>
  %l = tessel.reduce sum %t : !tessel.tensor<[n:1, f:6, h:3, w:5], f64> -> !s
  return %l : !s
}

// Depthwise: groups = channels = 3, two outputs per channel.
// DEPTHWISE: gradient x: 60 of 150
// DEPTHWISE: gradient k: 36 of 36
// DEPTHWISE: gradient check passed
func.func @depthwise(%x: !tessel.tensor<[n:2, c:3, h:5, w:5], f64> {tessel.name = "x"},
                     %k: !tessel.tensor<[c:1, f:6, kh:3, kw:2], f64> {tessel.name = "k"},
                     %w: !tessel.tensor<[n:2, f:6, h:5, w:4], f64> {tessel.name = "w"}) -> !s {
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"],
                             padding = array<i64: 1, 1, 0, 0>, groups = 3}
      : !tessel.tensor<[n:2, c:3, h:5, w:5], f64>, !tessel.tensor<[c:1, f:6, kh:3, kw:2], f64>
      -> !tessel.tensor<[n:2, f:6, h:5, w:4], f64>
  %z = tessel.mul %y, %w : !tessel.tensor<[n:2, f:6, h:5, w:4], f64>,
      !tessel.tensor<[n:2, f:6, h:5, w:4], f64> -> !tessel.tensor<[n:2, f:6, h:5, w:4], f64>
  %t = tessel.tanh %z : !tessel.tensor<[n:2, f:6, h:5, w:4], f64>
  %l = tessel.reduce sum %t : !tessel.tensor<[n:2, f:6, h:5, w:4], f64> -> !s
  return %l : !s
}
