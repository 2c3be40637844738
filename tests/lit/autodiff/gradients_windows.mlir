// The gradients of convolutions and pooling (through the gradient ops
// conv2d_backward_input, conv2d_backward_filter and pool_backward), checked
// against central finite differences in f64 with strides, uneven padding,
// dilation and overlapping windows.
// RUN: tessel-eval %s --function convolution --check-gradients --seed 1 --gradient-samples 40 | FileCheck %s --check-prefix=CONV
// RUN: tessel-eval %s --function dilated --check-gradients --seed 2 | FileCheck %s --check-prefix=DILATED
// RUN: tessel-eval %s --function pooling --check-gradients --seed 3 --gradient-samples 50 | FileCheck %s --check-prefix=POOL
// RUN: tessel-opt %s --tessel-autodiff=function=convolution | FileCheck %s --check-prefix=OPS

!s = !tessel.tensor<[], f64>

// CONV: gradient k: 36 of 36
// CONV: gradient x: 40 of 50
// CONV: gradient check passed
// OPS-LABEL: func.func @train_step
// OPS: tessel.conv2d_backward_filter {{.*}} {input_channel = "c", kernel = ["kh", "kw"], output_channel = "f", padding = array<i64: 1, 0, 2, 1>, spatial = ["h", "w"], strides = array<i64: 2, 1>}
// OPS-SAME: -> !tessel.tensor<[c:2, f:2, kh:3, kw:3], f64>
func.func @convolution(%x: !tessel.tensor<[n:1, c:2, h:5, w:5], f64> {tessel.name = "x"},
                       %w: !tessel.tensor<[n:1, f:2, h:2, w:6], f64> {tessel.name = "w"}) -> !s {
  %k = tessel.parameter "k" normal scale 0.5 seed 1 : !tessel.tensor<[c:2, f:2, kh:3, kw:3], f64>
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"],
                             strides = array<i64: 2, 1>,
                             padding = array<i64: 1, 0, 2, 1>}
      : !tessel.tensor<[n:1, c:2, h:5, w:5], f64>, !tessel.tensor<[c:2, f:2, kh:3, kw:3], f64>
      -> !tessel.tensor<[n:1, f:2, h:2, w:6], f64>
  %z = tessel.mul %y, %w : !tessel.tensor<[n:1, f:2, h:2, w:6], f64>,
      !tessel.tensor<[n:1, f:2, h:2, w:6], f64> -> !tessel.tensor<[n:1, f:2, h:2, w:6], f64>
  %l = tessel.reduce sum %z : !tessel.tensor<[n:1, f:2, h:2, w:6], f64> -> !s
  return %l : !s
}

// DILATED: gradient x: 16 of 72
// DILATED: gradient k: 8 of 8
// DILATED: gradient check passed
func.func @dilated(%x: !tessel.tensor<[n:2, c:1, h:6, w:6], f64> {tessel.name = "x"},
                   %k: !tessel.tensor<[c:1, f:2, kh:2, kw:2], f64> {tessel.name = "k"},
                   %w: !tessel.tensor<[n:2, f:2, h:4, w:4], f64> {tessel.name = "w"}) -> !s {
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"],
                             dilations = array<i64: 2, 2>}
      : !tessel.tensor<[n:2, c:1, h:6, w:6], f64>, !tessel.tensor<[c:1, f:2, kh:2, kw:2], f64>
      -> !tessel.tensor<[n:2, f:2, h:4, w:4], f64>
  %z = tessel.mul %y, %w : !tessel.tensor<[n:2, f:2, h:4, w:4], f64>,
      !tessel.tensor<[n:2, f:2, h:4, w:4], f64> -> !tessel.tensor<[n:2, f:2, h:4, w:4], f64>
  %l = tessel.reduce sum %z : !tessel.tensor<[n:2, f:2, h:4, w:4], f64> -> !s
  return %l : !s
}

// Overlapping 3x3 windows with stride 2 and padding, max and average.
// POOL: gradient x: 49 of 49
// POOL: gradient check passed
func.func @pooling(%x: !tessel.tensor<[h:7, w:7], f64> {tessel.name = "x"},
                   %w: !tessel.tensor<[h:4, w:4], f64> {tessel.name = "w"}) -> !s {
  %a = tessel.pool max %x {spatial = ["h", "w"], window = array<i64: 3, 3>,
                           strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
      : !tessel.tensor<[h:7, w:7], f64> -> !tessel.tensor<[h:4, w:4], f64>
  %b = tessel.pool avg %x {spatial = ["h", "w"], window = array<i64: 3, 3>,
                           strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
      : !tessel.tensor<[h:7, w:7], f64> -> !tessel.tensor<[h:4, w:4], f64>
  %ab = tessel.mul %a, %b : !tessel.tensor<[h:4, w:4], f64>, !tessel.tensor<[h:4, w:4], f64>
      -> !tessel.tensor<[h:4, w:4], f64>
  %z = tessel.mul %ab, %w : !tessel.tensor<[h:4, w:4], f64>, !tessel.tensor<[h:4, w:4], f64>
      -> !tessel.tensor<[h:4, w:4], f64>
  %l = tessel.reduce sum %z : !tessel.tensor<[h:4, w:4], f64> -> !s
  return %l : !s
}
