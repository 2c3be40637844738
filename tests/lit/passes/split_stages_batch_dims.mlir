// RUN: tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml | FileCheck %s
// RUN: tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml | FileCheck %s --check-prefix=SIZES

// A mixture of experts' layer: the tokens, [route, batch, d], are reshaped
// into the experts' naming, [experts, group, d], and back. `group` holds
// the batch's elements, so the two micro-batches resize it with `batch`
// (8 -> 4), as they do `rows`, which a rename gives the batch's position
// in @forward, and `group2`, which a reshape on the experts' side gives
// the group's: every reshape still holds the same elements. `route`,
// `experts` and `d`, which hold no batch, keep their sizes.
// CHECK-LABEL: func.func private @experts(
// CHECK-SAME: !tessel.tensor<[experts:2, group:4, d:3], f32>
// CHECK: tessel.reshape {{.*}} : !tessel.tensor<[experts:2, group:4, d:3], f32> -> !tessel.tensor<[experts:2, group2:4, d:3], f32>
// CHECK-LABEL: func.func private @moe(
// CHECK: tessel.reshape {{.*}} : !tessel.tensor<[route:2, batch:4, d:3], f32> -> !tessel.tensor<[experts:2, group:4, d:3], f32>
// CHECK: call @experts({{.*}}) {tessel.scope = "experts"}
// CHECK: tessel.reshape {{.*}} : !tessel.tensor<[experts:2, group:4, d:3], f32> -> !tessel.tensor<[route:2, batch:4, d:3], f32>
// CHECK-LABEL: func.func @stage0_loss(
// CHECK-SAME: !tessel.tensor<[batch:4, d:3], f32> {tessel.name = "x"}
// CHECK: call @moe({{.*}}) {tessel.scope = "layer0"}
// CHECK-LABEL: func.func @stage1_loss(
// CHECK: call @moe({{.*}}) {tessel.scope = "layer1"}
// CHECK: tessel.rename {{.*}} -> !tessel.tensor<[rows:4, d:3], f32>
// No dimension is left at the whole batch's size.
// SIZES-NOT: :8{{[],]}}

func.func private @experts(%x: !tessel.tensor<[experts:2, group:8, d:3], f32>) -> !tessel.tensor<[experts:2, group:8, d:3], f32> {
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[experts:2, d:3, e:3], f32>
  %g2 = tessel.reshape %x : !tessel.tensor<[experts:2, group:8, d:3], f32> -> !tessel.tensor<[experts:2, group2:8, d:3], f32>
  %h = tessel.einsum %g2, %w : (!tessel.tensor<[experts:2, group2:8, d:3], f32>, !tessel.tensor<[experts:2, d:3, e:3], f32>) -> !tessel.tensor<[experts:2, group2:8, e:3], f32>
  %r = tessel.reshape %h : !tessel.tensor<[experts:2, group2:8, e:3], f32> -> !tessel.tensor<[experts:2, group:8, d:3], f32>
  return %r : !tessel.tensor<[experts:2, group:8, d:3], f32>
}

func.func private @moe(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %gate = tessel.parameter "gate" normal scale 0.5 seed 2 : !tessel.tensor<[route:2, d:3], f32>
  %tokens = tessel.einsum %x, %gate : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[route:2, d:3], f32>) -> !tessel.tensor<[route:2, batch:8, d:3], f32>
  %in = tessel.reshape %tokens : !tessel.tensor<[route:2, batch:8, d:3], f32> -> !tessel.tensor<[experts:2, group:8, d:3], f32>
  %out = func.call @experts(%in) {tessel.scope = "experts"} : (!tessel.tensor<[experts:2, group:8, d:3], f32>) -> !tessel.tensor<[experts:2, group:8, d:3], f32>
  %back = tessel.reshape %out : !tessel.tensor<[experts:2, group:8, d:3], f32> -> !tessel.tensor<[route:2, batch:8, d:3], f32>
  %y = tessel.reduce sum %back : !tessel.tensor<[route:2, batch:8, d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  return %y : !tessel.tensor<[batch:8, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %h0 = func.call @moe(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h1 = func.call @moe(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %rows = tessel.rename %h1 : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[rows:8, d:3], f32>
  %loss = tessel.reduce mean %rows : !tessel.tensor<[rows:8, d:3], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
