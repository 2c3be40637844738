// A pipelined step on data x stage: the backward's all_reduce of a
// parameter's gradient over `data` runs once per micro-batch; it moves into
// apply, on the gradient sums, once a step. Left in the backward: a
// gradient also read in the backward, a ZeRO reduce_scatter, a max, and the
// cotangent sent to the stage before (stage1.input0.gradient). With
// tessel-bucket-all-reduces after it, apply's two moved all_reduces become
// one call.
// RUN: tessel-opt %s --tessel-reduce-gradients-once-per-step | FileCheck %s
// RUN: tessel-opt %s --tessel-reduce-gradients-once-per-step --tessel-bucket-all-reduces | FileCheck %s --check-prefix=BUCKET
// RUN: echo 'module {}' | not tessel-opt --tessel-reduce-gradients-once-per-step 2>&1 | FileCheck %s --check-prefix=NOSTAGES

// NOSTAGES: tessel-reduce-gradients-once-per-step: the module has no stages

// CHECK-LABEL: func.func @stage0_backward(
// CHECK-NOT: tessel.all_reduce
// CHECK: return
// CHECK-LABEL: func.func @stage0_apply(
// CHECK-NEXT: tessel.all_reduce sum %{{.*}} over ["data"]

// CHECK-LABEL: func.func @stage1_backward(
// CHECK-SAME: %[[X:[a-z0-9]+]]: !tessel.tensor<[batch:2, d:4], f32> {tessel.name = "stage1.input0"}
// CHECK: %[[W:.*]] = tessel.reduce sum %[[X]]
// CHECK: %[[B:.*]] = tessel.reduce sum %[[X]]
// CHECK: %[[USED:.*]] = tessel.all_reduce sum %{{.*}} over ["data"]
// CHECK: tessel.mul %[[USED]], %[[USED]]
// CHECK: tessel.reduce_scatter sum %{{.*}} along "d" over ["data"]
// CHECK: tessel.all_reduce max %{{.*}} over ["data"]
// CHECK: %[[COT:.*]] = tessel.all_reduce sum %{{.*}} over ["data"] : !tessel.tensor<[batch:2, d:4], f32>
// CHECK-NOT: tessel.all_reduce
// CHECK: return %[[W]], %[[B]], %[[USED]], %{{.*}}, %{{.*}}, %[[COT]] :

// CHECK-LABEL: func.func @stage1_apply(
// CHECK-SAME: %[[WSUM:[a-z0-9]+]]: !tessel.tensor<[d:4], f32> {tessel.name = "w.gradient"}
// CHECK-SAME: %[[BSUM:[a-z0-9]+]]: !tessel.tensor<[d:4], f32> {tessel.name = "b.gradient"}
// CHECK-NEXT: %[[WRED:.*]] = tessel.all_reduce sum %[[WSUM]] over ["data"] : !tessel.tensor<[d:4], f32>
// CHECK-NEXT: %[[BRED:.*]] = tessel.all_reduce sum %[[BSUM]] over ["data"] : !tessel.tensor<[d:4], f32>
// CHECK-NOT: tessel.all_reduce
// CHECK: tessel.sub %{{.*}}, %[[WRED]]
// CHECK: tessel.sub %{{.*}}, %[[BRED]]
// CHECK: return

// BUCKET-LABEL: func.func @stage1_apply(
// BUCKET: tessel.concat
// BUCKET-NEXT: tessel.all_reduce sum %{{.*}} over ["data"] : !tessel.tensor<[bucket:8], f32>
// BUCKET-NOT: tessel.all_reduce
// BUCKET: return

module attributes {tessel.mesh = #tessel.mesh<[data:2, stage:2]>,
                   tessel.pipeline = {axis = "stage", batch_dim = "batch", microbatches = 2 : i64,
                                      remat = false, schedule = "1f1b", stages = 2 : i64}} {
  func.func @stage0_backward(%x: !tessel.tensor<[batch:2, d:4], f32> {tessel.name = "x"})
      -> (!tessel.tensor<[d:4], f32> {tessel.name = "v.gradient"}) {
    %v = tessel.reduce sum %x : !tessel.tensor<[batch:2, d:4], f32> -> !tessel.tensor<[d:4], f32>
    %gv = tessel.all_reduce sum %v over ["data"] : !tessel.tensor<[d:4], f32>
    return %gv : !tessel.tensor<[d:4], f32>
  }
  func.func @stage0_apply(%p: !tessel.tensor<[d:4], f32> {tessel.name = "v", tessel.role = "parameter"},
                          %g: !tessel.tensor<[d:4], f32> {tessel.name = "v.gradient"})
      -> (!tessel.tensor<[d:4], f32> {tessel.name = "v"}) {
    %new = tessel.sub %p, %g : !tessel.tensor<[d:4], f32>, !tessel.tensor<[d:4], f32> -> !tessel.tensor<[d:4], f32>
    return %new : !tessel.tensor<[d:4], f32>
  }

  func.func @stage1_backward(%x: !tessel.tensor<[batch:2, d:4], f32> {tessel.name = "stage1.input0"})
      -> (!tessel.tensor<[d:4], f32> {tessel.name = "w.gradient"},
          !tessel.tensor<[d:4], f32> {tessel.name = "b.gradient"},
          !tessel.tensor<[d:4], f32> {tessel.name = "used.gradient"},
          !tessel.tensor<[d:2], f32> {tessel.name = "zero.gradient"},
          !tessel.tensor<[d:4], f32> {tessel.name = "max.gradient"},
          !tessel.tensor<[batch:2, d:4], f32> {tessel.name = "stage1.input0.gradient"}) {
    %w = tessel.reduce sum %x : !tessel.tensor<[batch:2, d:4], f32> -> !tessel.tensor<[d:4], f32>
    %gw = tessel.all_reduce sum %w over ["data"] : !tessel.tensor<[d:4], f32>
    %b = tessel.reduce sum %x : !tessel.tensor<[batch:2, d:4], f32> -> !tessel.tensor<[d:4], f32>
    %gb = tessel.all_reduce sum %b over ["data"] : !tessel.tensor<[d:4], f32>
    // Read again in the backward: stays.
    %gused = tessel.all_reduce sum %w over ["data"] : !tessel.tensor<[d:4], f32>
    %square = tessel.mul %gused, %gused : !tessel.tensor<[d:4], f32>, !tessel.tensor<[d:4], f32> -> !tessel.tensor<[d:4], f32>
    // ZeRO's shard of the gradient: stays.
    %gzero = tessel.reduce_scatter sum %w along "d" over ["data"] : !tessel.tensor<[d:4], f32> -> !tessel.tensor<[d:2], f32>
    // Not a sum: stays.
    %gmax = tessel.all_reduce max %b over ["data"] : !tessel.tensor<[d:4], f32>
    // The cotangent for stage 0, not a parameter's gradient: stays.
    %cot = tessel.mul %x, %x : !tessel.tensor<[batch:2, d:4], f32>, !tessel.tensor<[batch:2, d:4], f32> -> !tessel.tensor<[batch:2, d:4], f32>
    %gcot = tessel.all_reduce sum %cot over ["data"] : !tessel.tensor<[batch:2, d:4], f32>
    return %gw, %gb, %gused, %gzero, %gmax, %gcot
        : !tessel.tensor<[d:4], f32>, !tessel.tensor<[d:4], f32>, !tessel.tensor<[d:4], f32>,
          !tessel.tensor<[d:2], f32>, !tessel.tensor<[d:4], f32>, !tessel.tensor<[batch:2, d:4], f32>
  }
  func.func @stage1_apply(%w: !tessel.tensor<[d:4], f32> {tessel.name = "w", tessel.role = "parameter"},
                          %b: !tessel.tensor<[d:4], f32> {tessel.name = "b", tessel.role = "parameter"},
                          %gw: !tessel.tensor<[d:4], f32> {tessel.name = "w.gradient"},
                          %gb: !tessel.tensor<[d:4], f32> {tessel.name = "b.gradient"},
                          %gused: !tessel.tensor<[d:4], f32> {tessel.name = "used.gradient"},
                          %gzero: !tessel.tensor<[d:2], f32> {tessel.name = "zero.gradient"},
                          %gmax: !tessel.tensor<[d:4], f32> {tessel.name = "max.gradient"})
      -> (!tessel.tensor<[d:4], f32> {tessel.name = "w"}, !tessel.tensor<[d:4], f32> {tessel.name = "b"}) {
    %neww = tessel.sub %w, %gw : !tessel.tensor<[d:4], f32>, !tessel.tensor<[d:4], f32> -> !tessel.tensor<[d:4], f32>
    %newb = tessel.sub %b, %gb : !tessel.tensor<[d:4], f32>, !tessel.tensor<[d:4], f32> -> !tessel.tensor<[d:4], f32>
    return %neww, %newb : !tessel.tensor<[d:4], f32>, !tessel.tensor<[d:4], f32>
  }
}
