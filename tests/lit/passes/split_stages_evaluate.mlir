// RUN: tessel-opt %s --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml | FileCheck %s
// RUN: sed 's/%e0 = func.call @dense(%x)/%e0 = func.call @dense(%biased)/; s/^  %e0 = /  %extra = tessel.parameter "extra" zeros scale 1.0 seed 0 : !tessel.tensor<[d:3], f32>\n  %biased = tessel.add %x, %extra : !tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>\n  %e0 = /' %s > %t.extra.mlir
// RUN: tessel-opt %t.extra.mlir --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml --tessel-inline-layers --tessel-pipeline-autodiff --mlir-print-op-on-diagnostic=false 2>&1 | FileCheck %s --check-prefix=UNTRAINED

// The model's evaluate is cut at the loss's stages (the calls of @dense two
// by two): stage 0's part takes the data it reads and returns the
// activation stage 1 reads, named as the loss's stage names it; stage 1's
// takes the labels and the activation and returns evaluate's loss and
// correct, with their names. Both run on micro-batches of 4.
// CHECK-LABEL: func.func @stage0_evaluate(
// CHECK-SAME: %{{.*}}: !tessel.tensor<[batch:4, d:3], f32> {tessel.name = "x"})
// CHECK-SAME: -> (!tessel.tensor<[batch:4, d:3], f32> {tessel.name = "stage1.input0"})
// CHECK: {tessel.scope = "layer0"}
// CHECK: {tessel.scope = "layer1"}
// CHECK-NOT: tessel.scope
// CHECK-LABEL: func.func @stage1_evaluate(
// CHECK-SAME: {tessel.name = "labels"},
// CHECK-SAME: %[[IN:.*]]: !tessel.tensor<[batch:4, d:3], f32> {tessel.name = "stage1.input0"})
// CHECK-SAME: -> (!tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "correct"})
// CHECK: call @dense(%[[IN]]) {tessel.scope = "layer2"}
// CHECK: {tessel.scope = "layer3"}
// CHECK-NOT: func.func @evaluate(

// Its weights become the leading arguments of each stage's part
// (tessel-pipeline-autodiff), named as the stage holds them; an evaluation
// that reads a weight its stage does not train ("extra", which the loss
// never reads) is left out of every stage with a warning.
// UNTRAINED: warning: pipeline: the evaluation is left out of the pipelined program, which then cannot evaluate: stage 0's evaluation reads 'extra', which stage 0 does not train
// UNTRAINED-NOT: func.func @stage{{[01]}}_evaluate
// UNTRAINED: func.func @stage1_apply
// UNTRAINED-NOT: func.func @stage{{[01]}}_evaluate

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
  %h0 = func.call @dense(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h1 = func.call @dense(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h2 = func.call @dense(%h1) {tessel.scope = "layer2"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h3 = func.call @dense(%h2) {tessel.scope = "layer3"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %logits = tessel.einsum %h3, %emb : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3, classes:5], f32>) -> !tessel.tensor<[batch:8, classes:5], f32>
  %ce = tessel.softmax_cross_entropy %logits, %labels over "classes" : !tessel.tensor<[batch:8, classes:5], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %ce : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}

func.func @evaluate(%x: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "x"},
                    %labels: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"})
    -> (!tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "correct"}) {
  %emb = tessel.parameter "emb" normal scale 0.5 seed 7 : !tessel.tensor<[d:3, classes:5], f32>
  %e0 = func.call @dense(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %e1 = func.call @dense(%e0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %e2 = func.call @dense(%e1) {tessel.scope = "layer2"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %e3 = func.call @dense(%e2) {tessel.scope = "layer3"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %logits = tessel.einsum %e3, %emb : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3, classes:5], f32>) -> !tessel.tensor<[batch:8, classes:5], f32>
  %ce = tessel.softmax_cross_entropy %logits, %labels over "classes" : !tessel.tensor<[batch:8, classes:5], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %ce : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
  %max = tessel.reduce max %logits : !tessel.tensor<[batch:8, classes:5], f32> -> !tessel.tensor<[batch:8], f32>
  %hit = tessel.compare ge, %logits, %max : !tessel.tensor<[batch:8, classes:5], f32>, !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[batch:8, classes:5], i1>
  %truth = tessel.one_hot %labels as "classes" : !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8, classes:5], f32>
  %zero = tessel.constant 0.000000e+00 : f32 -> !tessel.tensor<[], f32>
  %right = tessel.select %hit, %truth, %zero : !tessel.tensor<[batch:8, classes:5], i1>, !tessel.tensor<[batch:8, classes:5], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, classes:5], f32>
  %correct = tessel.reduce sum %right : !tessel.tensor<[batch:8, classes:5], f32> -> !tessel.tensor<[], f32>
  return %loss, %correct : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
}
