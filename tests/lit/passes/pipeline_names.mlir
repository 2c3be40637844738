// The pipeline passes tensors between its stage functions by names of its
// own (stage{s}.input{k}, stage{s}.residual{k}, with .gradient for their
// cotangents). A weight whose name merely begins like one
// (stage1.input_bias, read by stage 0) stays an argument of stage 0's
// forward, not a cotangent to drop (that made invalid IR); a weight or a
// data argument named exactly like one is refused
// (pipeline_names_errors.mlir).
// RUN: tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml --tessel-inline-layers --tessel-pipeline-autodiff --tessel-apply-layout=layout-file=%S/Inputs/pipeline2.yaml --tessel-split-forward-backward | FileCheck %s

// CHECK-LABEL: func.func @stage0_forward(
// CHECK-SAME: tessel.name = "stage1.input_bias"
// CHECK-SAME: ->
// CHECK-SAME: tessel.name = "stage1.input0"
// CHECK-LABEL: func.func @stage0_backward(
// CHECK-SAME: tessel.name = "stage1.input_bias"
// CHECK-SAME: tessel.name = "stage1.input0.gradient"
// CHECK-SAME: ->
// CHECK-SAME: tessel.name = "stage1.input_bias.gradient"

func.func private @dense(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[d:3, e:3], f32>
  %h = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3, e:3], f32>) -> !tessel.tensor<[batch:8, e:3], f32>
  %r = tessel.rename %h : !tessel.tensor<[batch:8, e:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %t = tessel.tanh %r : !tessel.tensor<[batch:8, d:3], f32>
  return %t : !tessel.tensor<[batch:8, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %b = tessel.parameter "stage1.input_bias" normal scale 0.5 seed 8 : !tessel.tensor<[d:3], f32>
  %xb = tessel.add %x, %b : !tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %h0 = func.call @dense(%xb) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h1 = func.call @dense(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %loss = tessel.reduce mean %h1 : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
