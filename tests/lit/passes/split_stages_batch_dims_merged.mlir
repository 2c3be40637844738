// RUN: tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml | FileCheck %s
// RUN: tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml | FileCheck %s --check-prefix=SIZES

// A per-token layer: the batch is flattened with `seq` into `tokens` before
// the projection and split back after it. `tokens` holds 4 elements of each
// example, outermost, so the two micro-batches cut it with the batch
// (32 -> 16, 4 x the micro-batch of 4), and `cells`, which merges `tokens`
// with `e` too, 8 x 4: each micro-batch is a block of the merged
// dimensions, and every reshape still holds the same elements. `seq`, `d`
// and `e` keep their sizes.
// CHECK-LABEL: func.func private @per_token(
// CHECK-SAME: !tessel.tensor<[batch:4, seq:4, d:3], f32>
// CHECK: tessel.reshape {{.*}} : !tessel.tensor<[batch:4, seq:4, d:3], f32> -> !tessel.tensor<[tokens:16, d:3], f32>
// CHECK: tessel.einsum {{.*}} -> !tessel.tensor<[tokens:16, e:2], f32>
// CHECK: tessel.reshape {{.*}} : !tessel.tensor<[tokens:16, e:2], f32> -> !tessel.tensor<[cells:32], f32>
// CHECK: tessel.reshape {{.*}} : !tessel.tensor<[cells:32], f32> -> !tessel.tensor<[batch:4, seq:4, e:2], f32>
// CHECK-LABEL: func.func @stage0_loss(
// CHECK-SAME: !tessel.tensor<[batch:4, seq:4, d:3], f32> {tessel.name = "x"}
// CHECK: call @per_token({{.*}}) {tessel.scope = "layer0"}
// CHECK-LABEL: func.func @stage1_loss(
// CHECK: call @per_token({{.*}}) {tessel.scope = "layer1"}
// No dimension is left at the whole batch's sizes.
// SIZES-NOT: {{(batch:8|tokens:32|cells:64)}}

func.func private @per_token(%x: !tessel.tensor<[batch:8, seq:4, d:3], f32>) -> !tessel.tensor<[batch:8, seq:4, d:3], f32> {
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[d:3, e:2], f32>
  %v = tessel.parameter "v" normal scale 0.5 seed 2 : !tessel.tensor<[e:2, d:3], f32>
  %t = tessel.reshape %x : !tessel.tensor<[batch:8, seq:4, d:3], f32> -> !tessel.tensor<[tokens:32, d:3], f32>
  %h = tessel.einsum %t, %w : (!tessel.tensor<[tokens:32, d:3], f32>, !tessel.tensor<[d:3, e:2], f32>) -> !tessel.tensor<[tokens:32, e:2], f32>
  %c = tessel.reshape %h : !tessel.tensor<[tokens:32, e:2], f32> -> !tessel.tensor<[cells:64], f32>
  %a = tessel.tanh %c : !tessel.tensor<[cells:64], f32>
  %s = tessel.reshape %a : !tessel.tensor<[cells:64], f32> -> !tessel.tensor<[batch:8, seq:4, e:2], f32>
  %y = tessel.einsum %s, %v : (!tessel.tensor<[batch:8, seq:4, e:2], f32>, !tessel.tensor<[e:2, d:3], f32>) -> !tessel.tensor<[batch:8, seq:4, d:3], f32>
  return %y : !tessel.tensor<[batch:8, seq:4, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, seq:4, d:3], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %h0 = func.call @per_token(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, seq:4, d:3], f32>) -> !tessel.tensor<[batch:8, seq:4, d:3], f32>
  %h1 = func.call @per_token(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, seq:4, d:3], f32>) -> !tessel.tensor<[batch:8, seq:4, d:3], f32>
  %loss = tessel.reduce mean %h1 : !tessel.tensor<[batch:8, seq:4, d:3], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
