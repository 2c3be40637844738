// RUN: tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml | FileCheck %s
// RUN: tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2_stages.yaml | FileCheck %s --check-prefix=LISTED
// RUN: tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml 2>&1 >/dev/null | FileCheck %s --check-prefix=NO-EVALUATION

// @evaluate calls one layer, which cannot start two stages: it is left out,
// with a warning that says why (split_stages_evaluate.mlir cuts one).
// NO-EVALUATION: warning: pipeline: @evaluate is left out of the pipelined program, which then cannot evaluate: @evaluate calls its most repeated layer @dense 1 times, fewer than the 2 stages

// Two micro-batches: the batch of 8 becomes 4 everywhere. Without a list,
// the four calls of @dense start the stages two by two. The weight `bias`,
// read before the first layer and by the head, is made in both stages (one
// shared weight); the activation %h1 crosses as stage1.input0, and stage 0
// returns sum(output x cotangent).
// CHECK: module attributes {tessel.pipeline = {axis = "stage", batch_dim = "batch", microbatches = 2 : i64, remat = false, schedule = "gpipe", stages = 2 : i64}}
// CHECK-LABEL: func.func @stage0_loss(
// CHECK-SAME: %[[X:.*]]: !tessel.tensor<[batch:4, d:3], f32> {tessel.name = "x"},
// CHECK-SAME: %[[COT:.*]]: !tessel.tensor<[batch:4, d:3], f32> {tessel.name = "stage1.input0.gradient"})
// CHECK: tessel.parameter "bias"
// CHECK: call @dense({{.*}}) {tessel.scope = "layer0"}
// CHECK: %[[H1:.*]] = call @dense({{.*}}) {tessel.scope = "layer1"}
// CHECK: %[[P:.*]] = tessel.mul %[[H1]], %[[COT]] {tessel.pipeline_output = 0 : i64}
// CHECK: tessel.reduce sum %[[P]]
// CHECK-LABEL: func.func @stage1_loss(
// CHECK-SAME: {tessel.name = "labels"},
// CHECK-SAME: %[[IN:.*]]: !tessel.tensor<[batch:4, d:3], f32> {tessel.name = "stage1.input0"})
// CHECK: call @dense(%[[IN]]) {tessel.scope = "layer2"}
// CHECK: call @dense({{.*}}) {tessel.scope = "layer3"}
// CHECK: tessel.parameter "bias"
// CHECK: tessel.parameter "emb"
// CHECK: tessel.softmax_cross_entropy
// CHECK-NOT: func.func @forward
// CHECK-NOT: func.func @evaluate

// Listed: stage 1 starts at layer1 (and keeps layer3, which no list names).
// LISTED-LABEL: func.func @stage0_loss(
// LISTED: {tessel.scope = "layer0"}
// LISTED-NOT: tessel.scope
// LISTED-LABEL: func.func @stage1_loss(
// LISTED: {tessel.scope = "layer1"}
// LISTED: {tessel.scope = "layer2"}
// LISTED: {tessel.scope = "layer3"}

func.func private @dense(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[d:3, e:3], f32>
  %h = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3, e:3], f32>) -> !tessel.tensor<[batch:8, e:3], f32>
  %r = tessel.rename %h : !tessel.tensor<[batch:8, e:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %t = tessel.tanh %r : !tessel.tensor<[batch:8, d:3], f32>
  return %t : !tessel.tensor<[batch:8, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "x"},
                   %labels: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"}) -> !tessel.tensor<[], f32> {
  %emb = tessel.parameter "emb" normal scale 0.5 seed 7 : !tessel.tensor<[d:3, classes:5], f32>
  %bias = tessel.parameter "bias" normal scale 0.5 seed 8 : !tessel.tensor<[d:3], f32>
  %xb = tessel.add %x, %bias : !tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %h0 = func.call @dense(%xb) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h1 = func.call @dense(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h2 = func.call @dense(%h1) {tessel.scope = "layer2"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h3 = func.call @dense(%h2) {tessel.scope = "layer3"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h3b = tessel.add %h3, %bias : !tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %logits = tessel.einsum %h3b, %emb : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3, classes:5], f32>) -> !tessel.tensor<[batch:8, classes:5], f32>
  %ce = tessel.softmax_cross_entropy %logits, %labels over "classes" : !tessel.tensor<[batch:8, classes:5], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %ce : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}

func.func @evaluate(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %h0 = func.call @dense(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  return %h0 : !tessel.tensor<[batch:8, d:3], f32>
}
