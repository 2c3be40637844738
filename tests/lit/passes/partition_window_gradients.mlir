// RUN: tessel-opt %s -split-input-file --tessel-apply-layout="mesh=data:2 rules=n:data" --tessel-partition | FileCheck %s --check-prefix=DATA
// RUN: tessel-opt %s -split-input-file --tessel-apply-layout="mesh=rows:2 rules=h:rows" --tessel-partition | FileCheck %s --check-prefix=ROWS

// The gradients of a 3x3 "same" convolution and a 2x2 pooling. Data
// parallel, each rank computes its batch's gradients locally; the filter's
// gradient sums over the batch, so it is all-reduced once. Split by rows,
// the input's gradient takes a one-row halo of dy from each neighbour and
// pads (K - 1) = 2 rows itself; the filter's takes the forward halo of x
// and sums the rows' partial gradients; the pooling tiles its blocks.

// DATA-LABEL: func.func @gradients
// DATA-NOT: all_gather
// DATA: %[[DX:.*]] = tessel.conv2d_backward_input {{.*}} : !tessel.tensor<[n:2, f:2, h:4, w:4], f32>, !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32> -> !tessel.tensor<[n:2, c:1, h:4, w:4], f32>
// DATA: %[[DK:.*]] = tessel.conv2d_backward_filter {{.*}} -> !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>
// DATA-NEXT: tessel.all_reduce sum %[[DK]] over ["data"]
// DATA: tessel.pool_backward max {{.*}} -> !tessel.tensor<[n:2, f:2, h:4, w:4], f32>
// DATA-NOT: all_gather

// ROWS-LABEL: func.func @gradients
// ROWS-NOT: all_gather
// ROWS: %[[DYH:.*]] = tessel.halo_exchange %{{.*}} along "h" over "rows" halo [1, 1] : !tessel.tensor<[n:4, f:2, h:2, w:4], f32> -> !tessel.tensor<[n:4, f:2, h:4, w:4], f32>
// ROWS: tessel.conv2d_backward_input %[[DYH]], {{.*}}padding = array<i64: 2, 2, 1, 1>{{.*}} -> !tessel.tensor<[n:4, c:1, h:2, w:4], f32>
// ROWS: %[[XH:.*]] = tessel.halo_exchange %{{.*}} along "h" over "rows" halo [1, 1] : !tessel.tensor<[n:4, c:1, h:2, w:4], f32> -> !tessel.tensor<[n:4, c:1, h:4, w:4], f32>
// ROWS: %[[DK:.*]] = tessel.conv2d_backward_filter %[[XH]], {{.*}}padding = array<i64: 0, 0, 1, 1>
// ROWS-NEXT: tessel.all_reduce sum %[[DK]] over ["rows"]
// ROWS: tessel.pool_backward max {{.*}} -> !tessel.tensor<[n:4, f:2, h:2, w:4], f32>
// ROWS-NOT: all_gather
func.func @gradients(%x: !tessel.tensor<[n:4, c:1, h:4, w:4], f32>,
                     %k: !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>,
                     %dy: !tessel.tensor<[n:4, f:2, h:4, w:4], f32>,
                     %y: !tessel.tensor<[n:4, f:2, h:4, w:4], f32>,
                     %dp: !tessel.tensor<[n:4, f:2, h:2, w:2], f32>)
    -> (!tessel.tensor<[n:4, c:1, h:4, w:4], f32>,
        !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>,
        !tessel.tensor<[n:4, f:2, h:4, w:4], f32>) {
  %dx = tessel.conv2d_backward_input %dy, %k {input_channel = "c", output_channel = "f",
          spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>}
      : !tessel.tensor<[n:4, f:2, h:4, w:4], f32>, !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>
      -> !tessel.tensor<[n:4, c:1, h:4, w:4], f32>
  %dk = tessel.conv2d_backward_filter %x, %dy {input_channel = "c", output_channel = "f",
          spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>}
      : !tessel.tensor<[n:4, c:1, h:4, w:4], f32>, !tessel.tensor<[n:4, f:2, h:4, w:4], f32>
      -> !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>
  %dpool = tessel.pool_backward max %y, %dp {spatial = ["h", "w"], window = array<i64: 2, 2>,
             strides = array<i64: 2, 2>}
      : !tessel.tensor<[n:4, f:2, h:4, w:4], f32>, !tessel.tensor<[n:4, f:2, h:2, w:2], f32>
      -> !tessel.tensor<[n:4, f:2, h:4, w:4], f32>
  return %dx, %dk, %dpool : !tessel.tensor<[n:4, c:1, h:4, w:4], f32>,
      !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>, !tessel.tensor<[n:4, f:2, h:4, w:4], f32>
}
