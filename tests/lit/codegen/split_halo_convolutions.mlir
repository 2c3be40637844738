// RUN: tessel-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tessel-split-halo-convolutions))' | FileCheck %s

// A convolution of a halo-exchanged block (rows split, 3x3, unpadded on
// the rows): the local block alone gives output rows 1 to 6, the first
// three exchanged rows row 0, the last three row 7, joined in order.
// CHECK-LABEL: func.func @rows
// CHECK: %[[W:.*]] = tessel.halo_exchange %arg0 along "h" over "rows" halo [1, 1]
// CHECK: %[[LOWIN:.*]] = tessel.slice %[[W]] {dims = ["h"], starts = array<i64: 0>} : {{.*}} -> !tessel.tensor<[c:2, h:3, w:4], f32>
// CHECK: %[[LOW:.*]] = tessel.conv2d %[[LOWIN]], %arg1 {{.*}}padding = array<i64: 0, 0, 1, 1>{{.*}} -> !tessel.tensor<[f:3, h:1, w:4], f32>
// CHECK: %[[INNER:.*]] = tessel.conv2d %arg0, %arg1 {{.*}} -> !tessel.tensor<[f:3, h:6, w:4], f32>
// CHECK: %[[HIGHIN:.*]] = tessel.slice %[[W]] {dims = ["h"], starts = array<i64: 7>} : {{.*}} -> !tessel.tensor<[c:2, h:3, w:4], f32>
// CHECK: %[[HIGH:.*]] = tessel.conv2d %[[HIGHIN]], %arg1 {{.*}} -> !tessel.tensor<[f:3, h:1, w:4], f32>
// CHECK: %[[Y:.*]] = tessel.concat %[[LOW]], %[[INNER]], %[[HIGH]] over "h" {{.*}} -> !tessel.tensor<[f:3, h:8, w:4], f32>
// CHECK: return %[[Y]]
module attributes {tessel.mesh = #tessel.mesh<[rows:2]>} {
  func.func @rows(%x: !tessel.tensor<[c:2, h:8, w:4], f32>, %k: !tessel.tensor<[c:2, f:3, kh:3, kw:3], f32>)
      -> !tessel.tensor<[f:3, h:8, w:4], f32> {
    %w = tessel.halo_exchange %x along "h" over "rows" halo [1, 1] : !tessel.tensor<[c:2, h:8, w:4], f32> -> !tessel.tensor<[c:2, h:10, w:4], f32>
    %y = tessel.conv2d %w, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 0, 0, 1, 1>} : !tessel.tensor<[c:2, h:10, w:4], f32>, !tessel.tensor<[c:2, f:3, kh:3, kw:3], f32> -> !tessel.tensor<[f:3, h:8, w:4], f32>
    return %y : !tessel.tensor<[f:3, h:8, w:4], f32>
  }
}

// -----

// Columns split, a 5-wide window with stride 2 and a halo of 2 low, 1
// high: output columns 1 and 2 read the block alone (block columns 0-4
// and 2-6), column 0 the first five exchanged columns, column 3 the last
// five.
// CHECK-LABEL: func.func @strided
// CHECK: tessel.slice %{{.*}} {dims = ["w"], starts = array<i64: 0>} {{.*}} -> !tessel.tensor<[c:1, h:4, w:5], f32>
// CHECK: tessel.conv2d %arg0, %arg1 {{.*}} -> !tessel.tensor<[f:1, h:4, w:2], f32>
// CHECK: tessel.slice %{{.*}} {dims = ["w"], starts = array<i64: 6>} {{.*}} -> !tessel.tensor<[c:1, h:4, w:5], f32>
// CHECK: tessel.concat {{.*}} over "w" {{.*}} -> !tessel.tensor<[f:1, h:4, w:4], f32>
module attributes {tessel.mesh = #tessel.mesh<[cols:2]>} {
  func.func @strided(%x: !tessel.tensor<[c:1, h:4, w:8], f32>, %k: !tessel.tensor<[c:1, f:1, kh:1, kw:5], f32>)
      -> !tessel.tensor<[f:1, h:4, w:4], f32> {
    %w = tessel.halo_exchange %x along "w" over "cols" halo [2, 1] : !tessel.tensor<[c:1, h:4, w:8], f32> -> !tessel.tensor<[c:1, h:4, w:11], f32>
    %y = tessel.conv2d %w, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], strides = array<i64: 1, 2>} : !tessel.tensor<[c:1, h:4, w:11], f32>, !tessel.tensor<[c:1, f:1, kh:1, kw:5], f32> -> !tessel.tensor<[f:1, h:4, w:4], f32>
    return %y : !tessel.tensor<[f:1, h:4, w:4], f32>
  }
}

// -----

// Left as they are: a block smaller than the window (no interior rows),
// and a convolution padded on the exchanged dimension.
// CHECK-LABEL: func.func @unsplit
// CHECK-NOT: tessel.slice
// CHECK-NOT: tessel.concat
// CHECK: return
module attributes {tessel.mesh = #tessel.mesh<[rows:2]>} {
  func.func @unsplit(%x: !tessel.tensor<[c:1, h:2, w:4], f32>, %k: !tessel.tensor<[c:1, f:1, kh:3, kw:3], f32>)
      -> (!tessel.tensor<[f:1, h:2, w:4], f32>, !tessel.tensor<[f:1, h:4, w:4], f32>) {
    %w = tessel.halo_exchange %x along "h" over "rows" halo [1, 1] : !tessel.tensor<[c:1, h:2, w:4], f32> -> !tessel.tensor<[c:1, h:4, w:4], f32>
    %small = tessel.conv2d %w, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 0, 0, 1, 1>} : !tessel.tensor<[c:1, h:4, w:4], f32>, !tessel.tensor<[c:1, f:1, kh:3, kw:3], f32> -> !tessel.tensor<[f:1, h:2, w:4], f32>
    %padded = tessel.conv2d %w, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>} : !tessel.tensor<[c:1, h:4, w:4], f32>, !tessel.tensor<[c:1, f:1, kh:3, kw:3], f32> -> !tessel.tensor<[f:1, h:4, w:4], f32>
    return %small, %padded : !tessel.tensor<[f:1, h:2, w:4], f32>, !tessel.tensor<[f:1, h:4, w:4], f32>
  }
}

// -----

// The input gradient of such a convolution (3x3, padded by 2 on the rows of
// the exchanged dy: the transposed convolution of a forward one padded by
// 0): row h reads exchanged dy rows h .. h + 2, so the block alone gives
// rows 1 to 6 (padded by 2 on either side), the first three exchanged rows
// row 0 and the last three row 7, joined in order.
// CHECK-LABEL: func.func @input_gradient
// CHECK: %[[W:.*]] = tessel.halo_exchange %arg0 along "h" over "rows" halo [1, 1]
// CHECK: %[[LOWIN:.*]] = tessel.slice %[[W]] {dims = ["h"], starts = array<i64: 0>} : {{.*}} -> !tessel.tensor<[f:3, h:3, w:4], f32>
// CHECK: %[[LOW:.*]] = tessel.conv2d_backward_input %[[LOWIN]], %arg1 {{.*}}padding = array<i64: 2, 2, 1, 1>{{.*}} -> !tessel.tensor<[c:2, h:1, w:4], f32>
// CHECK: %[[INNER:.*]] = tessel.conv2d_backward_input %arg0, %arg1 {{.*}}padding = array<i64: 2, 2, 1, 1>{{.*}} -> !tessel.tensor<[c:2, h:6, w:4], f32>
// CHECK: %[[HIGHIN:.*]] = tessel.slice %[[W]] {dims = ["h"], starts = array<i64: 7>} : {{.*}} -> !tessel.tensor<[f:3, h:3, w:4], f32>
// CHECK: %[[HIGH:.*]] = tessel.conv2d_backward_input %[[HIGHIN]], %arg1 {{.*}}padding = array<i64: 2, 2, 1, 1>{{.*}} -> !tessel.tensor<[c:2, h:1, w:4], f32>
// CHECK: %[[DX:.*]] = tessel.concat %[[LOW]], %[[INNER]], %[[HIGH]] over "h" {{.*}} -> !tessel.tensor<[c:2, h:8, w:4], f32>
// CHECK: return %[[DX]]
module attributes {tessel.mesh = #tessel.mesh<[rows:2]>} {
  func.func @input_gradient(%dy: !tessel.tensor<[f:3, h:8, w:4], f32>, %k: !tessel.tensor<[c:2, f:3, kh:3, kw:3], f32>)
      -> !tessel.tensor<[c:2, h:8, w:4], f32> {
    %w = tessel.halo_exchange %dy along "h" over "rows" halo [1, 1] : !tessel.tensor<[f:3, h:8, w:4], f32> -> !tessel.tensor<[f:3, h:10, w:4], f32>
    %dx = tessel.conv2d_backward_input %w, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 2, 2, 1, 1>} : !tessel.tensor<[f:3, h:10, w:4], f32>, !tessel.tensor<[c:2, f:3, kh:3, kw:3], f32> -> !tessel.tensor<[c:2, h:8, w:4], f32>
    return %dx : !tessel.tensor<[c:2, h:8, w:4], f32>
  }
}

// -----

// Left as it is: an input gradient strided on the exchanged dimension.
// CHECK-LABEL: func.func @strided_input_gradient
// CHECK-NOT: tessel.slice
// CHECK-NOT: tessel.concat
// CHECK: return
module attributes {tessel.mesh = #tessel.mesh<[rows:2]>} {
  func.func @strided_input_gradient(%dy: !tessel.tensor<[f:1, h:4, w:4], f32>, %k: !tessel.tensor<[c:1, f:1, kh:3, kw:3], f32>)
      -> !tessel.tensor<[c:1, h:9, w:4], f32> {
    %w = tessel.halo_exchange %dy along "h" over "rows" halo [1, 1] : !tessel.tensor<[f:1, h:4, w:4], f32> -> !tessel.tensor<[f:1, h:6, w:4], f32>
    %dx = tessel.conv2d_backward_input %w, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], strides = array<i64: 2, 1>, padding = array<i64: 2, 2, 1, 1>} : !tessel.tensor<[f:1, h:6, w:4], f32>, !tessel.tensor<[c:1, f:1, kh:3, kw:3], f32> -> !tessel.tensor<[c:1, h:9, w:4], f32>
    return %dx : !tessel.tensor<[c:1, h:9, w:4], f32>
  }
}
