// A stage whose layers the loss does not depend on hands nothing to the
// next stage: tessel-split-stages says so (it crashed building a stage
// loss of no outputs).
// RUN: not tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml 2>&1 | FileCheck %s

// CHECK: error: pipeline: stage 0 hands nothing to stage 1 (the loss of @forward does not depend on the layers of stage 0); place the layers differently

func.func private @dense(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[d:3, e:3], f32>
  %h = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3, e:3], f32>) -> !tessel.tensor<[batch:8, e:3], f32>
  %r = tessel.rename %h : !tessel.tensor<[batch:8, e:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %t = tessel.tanh %r : !tessel.tensor<[batch:8, d:3], f32>
  return %t : !tessel.tensor<[batch:8, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "x"}, %y: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "y"}) -> !tessel.tensor<[], f32> {
  %h0 = func.call @dense(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h1 = func.call @dense(%y) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %loss = tessel.reduce mean %h1 : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
