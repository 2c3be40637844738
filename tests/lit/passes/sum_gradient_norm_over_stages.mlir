// Clipping by the global norm in a pipelined step: the sqrt of each stage's
// apply that tessel-pipeline-autodiff marked takes the all_reduce over the
// pipeline axis of its stage's sum of squares, so both stages clip by the
// norm of both stages' gradients; an unmarked sqrt (a model's own) is left
// alone. With one stage (stage0 alone) the mark goes and nothing is added.
// RUN: tessel-opt %s --tessel-sum-gradient-norm-over-stages | FileCheck %s
// RUN: sed 's/stages = 2 : i64/stages = 1 : i64/' %s | tessel-opt --tessel-sum-gradient-norm-over-stages 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: echo 'module {}' | not tessel-opt --tessel-sum-gradient-norm-over-stages 2>&1 | FileCheck %s --check-prefix=NOSTAGES

// NOSTAGES: tessel-sum-gradient-norm-over-stages: the module has no stages

// CHECK-LABEL: func.func @stage0_apply(
// CHECK: %[[SQ:.*]] = tessel.reduce sum
// CHECK-NEXT: %[[ALL:.*]] = tessel.all_reduce sum %[[SQ]] over ["stage"] : !tessel.tensor<[], f32>
// CHECK-NEXT: tessel.sqrt %[[ALL]] : !tessel.tensor<[], f32>
// CHECK-NOT: tessel.stage_gradient_norm
// CHECK-LABEL: func.func @stage1_apply(
// CHECK: %[[OWN:.*]] = tessel.reduce sum
// CHECK-NEXT: tessel.sqrt %[[OWN]] : !tessel.tensor<[], f32>
// CHECK: %[[SQ1:.*]] = tessel.reduce sum
// CHECK-NEXT: %[[ALL1:.*]] = tessel.all_reduce sum %[[SQ1]] over ["stage"]
// CHECK-NEXT: tessel.sqrt %[[ALL1]]

// ONE-LABEL: func.func @stage0_apply(
// ONE-NOT: tessel.all_reduce
// ONE-NOT: tessel.stage_gradient_norm
// ONE-LABEL: func.func @stage1_apply(

module attributes {tessel.mesh = #tessel.mesh<[data:2, stage:2]>,
                   tessel.pipeline = {axis = "stage", batch_dim = "batch", microbatches = 2 : i64,
                                      remat = false, schedule = "1f1b", stages = 2 : i64}} {
  func.func @stage0_apply(%g: !tessel.tensor<[d:4], f32> {tessel.name = "v.gradient"})
      -> (!tessel.tensor<[], f32> {tessel.name = "norm"}) {
    %squares = tessel.mul %g, %g : !tessel.tensor<[d:4], f32>, !tessel.tensor<[d:4], f32> -> !tessel.tensor<[d:4], f32>
    %sum = tessel.reduce sum %squares : !tessel.tensor<[d:4], f32> -> !tessel.tensor<[], f32>
    %norm = tessel.sqrt %sum {tessel.stage_gradient_norm} : !tessel.tensor<[], f32>
    return %norm : !tessel.tensor<[], f32>
  }
  func.func @stage1_apply(%g: !tessel.tensor<[d:4], f32> {tessel.name = "w.gradient"})
      -> (!tessel.tensor<[], f32> {tessel.name = "norm"}, !tessel.tensor<[], f32> {tessel.name = "own"}) {
    %squares = tessel.mul %g, %g : !tessel.tensor<[d:4], f32>, !tessel.tensor<[d:4], f32> -> !tessel.tensor<[d:4], f32>
    %own_sum = tessel.reduce sum %g : !tessel.tensor<[d:4], f32> -> !tessel.tensor<[], f32>
    %own = tessel.sqrt %own_sum : !tessel.tensor<[], f32>
    %sum = tessel.reduce sum %squares : !tessel.tensor<[d:4], f32> -> !tessel.tensor<[], f32>
    %norm = tessel.sqrt %sum {tessel.stage_gradient_norm} : !tessel.tensor<[], f32>
    return %norm, %own : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
  }
}
