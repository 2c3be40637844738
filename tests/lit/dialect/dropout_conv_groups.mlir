// Round trip of tessel.dropout (with and without `block of`) and of grouped
// and depthwise tessel.conv2d through the custom assembly format and the
// generic form.
// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt -mlir-print-op-generic %s | tessel-opt | FileCheck %s

// CHECK-LABEL: func.func @dropout
// CHECK: tessel.dropout %{{.*}} step %{{.*}} rate 1.000000e-01 seed 7 : !tessel.tensor<[b:4, h:8], f32>, !tessel.tensor<[], i64>
// CHECK: tessel.dropout %{{.*}} step %{{.*}} rate 5.000000e-01 seed 0 : !tessel.tensor<[b:4, h:8], bf16>, !tessel.tensor<[], i32>
func.func @dropout(%x: !tessel.tensor<[b:4, h:8], f32>, %s: !tessel.tensor<[], i64>,
                   %y: !tessel.tensor<[b:4, h:8], bf16>, %t: !tessel.tensor<[], i32>)
    -> (!tessel.tensor<[b:4, h:8], f32>, !tessel.tensor<[b:4, h:8], bf16>) {
  %a = tessel.dropout %x step %s rate 0.1 seed 7 : !tessel.tensor<[b:4, h:8], f32>, !tessel.tensor<[], i64>
  %b = tessel.dropout %y step %t rate 0.5 seed 0 : !tessel.tensor<[b:4, h:8], bf16>, !tessel.tensor<[], i32>
  return %a, %b : !tessel.tensor<[b:4, h:8], f32>, !tessel.tensor<[b:4, h:8], bf16>
}

// CHECK-LABEL: func.func @dropout_block
// CHECK: tessel.dropout %{{.*}} step %{{.*}} rate 2.500000e-01 seed 3
// CHECK-SAME: block of !tessel.tensor<[b:4, h:7], f32, #tessel.layout<{h = [model]}>>
// CHECK-SAME: : !tessel.tensor<[b:4, h:2], f32>, !tessel.tensor<[], i64>
module attributes {tessel.mesh = #tessel.mesh<[model:4]>} {
  func.func @dropout_block(%x: !tessel.tensor<[b:4, h:2], f32>, %s: !tessel.tensor<[], i64>)
      -> !tessel.tensor<[b:4, h:2], f32> {
    %a = tessel.dropout %x step %s rate 0.25 seed 3
        block of !tessel.tensor<[b:4, h:7], f32, #tessel.layout<{h = [model]}>>
        : !tessel.tensor<[b:4, h:2], f32>, !tessel.tensor<[], i64>
    return %a : !tessel.tensor<[b:4, h:2], f32>
  }
}

// CHECK-LABEL: func.func @grouped
// CHECK: tessel.conv2d {{.*}}groups = 2
// CHECK: tessel.conv2d {{.*}}groups = 6
// CHECK: tessel.conv2d_backward_input {{.*}}groups = 2
// CHECK: tessel.conv2d_backward_filter {{.*}}groups = 2
// The default, 1, is not printed.
// CHECK-NOT: groups = 1
func.func @grouped(%x: !tessel.tensor<[n:2, c:6, h:5, w:5], f32>,
                   %k: !tessel.tensor<[c:3, f:4, kh:3, kw:3], f32>,
                   %d: !tessel.tensor<[c:1, f:12, kh:3, kw:3], f32>,
                   %dy: !tessel.tensor<[n:2, f:4, h:3, w:3], f32>,
                   %k1: !tessel.tensor<[c:6, f:4, kh:3, kw:3], f32>)
    -> (!tessel.tensor<[n:2, f:4, h:3, w:3], f32>, !tessel.tensor<[n:2, f:12, h:3, w:3], f32>,
        !tessel.tensor<[n:2, c:6, h:5, w:5], f32>, !tessel.tensor<[c:3, f:4, kh:3, kw:3], f32>,
        !tessel.tensor<[n:2, f:4, h:3, w:3], f32>) {
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 2}
      : !tessel.tensor<[n:2, c:6, h:5, w:5], f32>, !tessel.tensor<[c:3, f:4, kh:3, kw:3], f32>
      -> !tessel.tensor<[n:2, f:4, h:3, w:3], f32>
  %z = tessel.conv2d %x, %d {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 6}
      : !tessel.tensor<[n:2, c:6, h:5, w:5], f32>, !tessel.tensor<[c:1, f:12, kh:3, kw:3], f32>
      -> !tessel.tensor<[n:2, f:12, h:3, w:3], f32>
  %dx = tessel.conv2d_backward_input %dy, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 2}
      : !tessel.tensor<[n:2, f:4, h:3, w:3], f32>, !tessel.tensor<[c:3, f:4, kh:3, kw:3], f32>
      -> !tessel.tensor<[n:2, c:6, h:5, w:5], f32>
  %dk = tessel.conv2d_backward_filter %x, %dy {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 2}
      : !tessel.tensor<[n:2, c:6, h:5, w:5], f32>, !tessel.tensor<[n:2, f:4, h:3, w:3], f32>
      -> !tessel.tensor<[c:3, f:4, kh:3, kw:3], f32>
  %u = tessel.conv2d %x, %k1 {input_channel = "c", output_channel = "f",
                              spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 1}
      : !tessel.tensor<[n:2, c:6, h:5, w:5], f32>, !tessel.tensor<[c:6, f:4, kh:3, kw:3], f32>
      -> !tessel.tensor<[n:2, f:4, h:3, w:3], f32>
  return %y, %z, %dx, %dk, %u
      : !tessel.tensor<[n:2, f:4, h:3, w:3], f32>, !tessel.tensor<[n:2, f:12, h:3, w:3], f32>,
        !tessel.tensor<[n:2, c:6, h:5, w:5], f32>, !tessel.tensor<[c:3, f:4, kh:3, kw:3], f32>,
        !tessel.tensor<[n:2, f:4, h:3, w:3], f32>
}
