// RUN: not tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2_missing.yaml 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2_order.yaml 2>&1 | FileCheck %s --check-prefix=ORDER
// RUN: not tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2_uneven_batch.yaml 2>&1 | FileCheck %s --check-prefix=BATCH
// RUN: not tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/hybrid.yaml 2>&1 | FileCheck %s --check-prefix=NONE

// MISSING: error: pipeline stage 1 lists layer 'layer9', but @forward has no call with that scope (tessel.scope)
// ORDER: split_stages_errors.mlir:[[# @LINE + 13]]:{{.*}} error: pipeline: layer 'layer1' of stage 0 comes after a layer of stage 1; the stages must follow the order of @forward
// BATCH: error: pipeline: a batch of 6 ('batch') cannot be cut into 4 equal micro-batches
// NONE: error: tessel-split-stages: the layout file '{{.*}}hybrid.yaml' has no 'pipeline' section

func.func private @dense(%x: !tessel.tensor<[batch:6, d:3], f32>) -> !tessel.tensor<[batch:6, d:3], f32> {
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[d:3, e:3], f32>
  %h = tessel.einsum %x, %w : (!tessel.tensor<[batch:6, d:3], f32>, !tessel.tensor<[d:3, e:3], f32>) -> !tessel.tensor<[batch:6, e:3], f32>
  %r = tessel.rename %h : !tessel.tensor<[batch:6, e:3], f32> -> !tessel.tensor<[batch:6, d:3], f32>
  return %r : !tessel.tensor<[batch:6, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:6, d:3], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %h0 = func.call @dense(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:6, d:3], f32>) -> !tessel.tensor<[batch:6, d:3], f32>
  %h1 = func.call @dense(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:6, d:3], f32>) -> !tessel.tensor<[batch:6, d:3], f32>
  %loss = tessel.reduce mean %h1 : !tessel.tensor<[batch:6, d:3], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
