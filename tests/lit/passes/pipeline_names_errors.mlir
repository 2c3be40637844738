// A weight or a data argument named exactly like a tensor that the pipeline
// passes between its stage functions is refused (a data argument named
// stage1.input0 silently took the place of the activation).
// RUN: not tessel-opt %s -split-input-file --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml --tessel-inline-layers --tessel-pipeline-autodiff 2>&1 | FileCheck %s

// CHECK: error: pipeline: weight 'stage1.input0' is named like a tensor that the pipeline passes between stages; rename it

func.func private @dense(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[d:3, e:3], f32>
  %h = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3, e:3], f32>) -> !tessel.tensor<[batch:8, e:3], f32>
  %r = tessel.rename %h : !tessel.tensor<[batch:8, e:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %t = tessel.tanh %r : !tessel.tensor<[batch:8, d:3], f32>
  return %t : !tessel.tensor<[batch:8, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %b = tessel.parameter "stage1.input0" normal scale 0.5 seed 8 : !tessel.tensor<[d:3], f32>
  %xb = tessel.add %x, %b : !tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %h0 = func.call @dense(%xb) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h1 = func.call @dense(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %loss = tessel.reduce mean %h1 : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}

// -----

// CHECK: error: pipeline: argument 'stage0.residual3.gradient' of @forward is named like a tensor that the pipeline passes between stages; rename it

func.func private @dense(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[d:3, e:3], f32>
  %h = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3, e:3], f32>) -> !tessel.tensor<[batch:8, e:3], f32>
  %r = tessel.rename %h : !tessel.tensor<[batch:8, e:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %t = tessel.tanh %r : !tessel.tensor<[batch:8, d:3], f32>
  return %t : !tessel.tensor<[batch:8, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "x"}, %y: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "stage0.residual3.gradient"}) -> !tessel.tensor<[], f32> {
  %h0 = func.call @dense(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h1 = func.call @dense(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %c = tessel.mul %h1, %y : !tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %loss = tessel.reduce mean %c : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
