// RUN: tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/split_logits.yaml | FileCheck %s

// A split that an override gives one tensor follows the data into the ops
// computed from it, on dimensions no rule speaks of: the softmax of the
// logits, the difference with the one-hot labels and its scaling keep the
// vocabulary split, as does a contraction that keeps the dimension. The
// one-hot labels (made whole along the vocabulary), a tensor whose override
// keeps it whole, and a dimension whose mesh axis another dimension of the
// result already uses do not take it.
// CHECK-LABEL: func.func @follow
func.func @follow(%logits: !tessel.tensor<[batch:4, vocab:8], f32> {tessel.name = "logits"},
                  %labels: !tessel.tensor<[batch:4], i32>,
                  %h: !tessel.tensor<[batch:4, d:6], f32>) {
  // (One type printed: the result's is the operand's.)
  // CHECK: tessel.softmax {{.*}} : !tessel.tensor<[batch:4, vocab:8], f32, #tessel.layout<{batch = [data], vocab = [model]}>>{{$}}
  %p = tessel.softmax %logits over "vocab" : !tessel.tensor<[batch:4, vocab:8], f32>
  // CHECK: tessel.one_hot {{.*}} -> !tessel.tensor<[batch:4, vocab:8], f32, #tessel.layout<{batch = [data]}>>
  %y = tessel.one_hot %labels as "vocab" : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4, vocab:8], f32>
  // CHECK: tessel.sub {{.*}} -> !tessel.tensor<[batch:4, vocab:8], f32, #tessel.layout<{batch = [data], vocab = [model]}>>
  %g = tessel.sub %p, %y : !tessel.tensor<[batch:4, vocab:8], f32>, !tessel.tensor<[batch:4, vocab:8], f32>
      -> !tessel.tensor<[batch:4, vocab:8], f32>
  // CHECK: tessel.einsum {{.*}} -> !tessel.tensor<[d:6, vocab:8], f32, #tessel.layout<{vocab = [model]}>>
  %dw = tessel.einsum %g, %h : (!tessel.tensor<[batch:4, vocab:8], f32>, !tessel.tensor<[batch:4, d:6], f32>)
      -> !tessel.tensor<[d:6, vocab:8], f32>
  // CHECK: tessel.einsum {{.*}} -> !tessel.tensor<[batch:4, d:6], f32, #tessel.layout<{batch = [data]}>>
  %dh = tessel.einsum %g, %dw : (!tessel.tensor<[batch:4, vocab:8], f32>, !tessel.tensor<[d:6, vocab:8], f32>)
      -> !tessel.tensor<[batch:4, d:6], f32>
  // CHECK: tessel.neg {{.*}} -> !tessel.tensor<[d:6, vocab:8], f32>
  %kept = tessel.neg %dw {tessel.name = "whole"} : !tessel.tensor<[d:6, vocab:8], f32>
  // The table's vocabulary is split over `data`, which the batch takes.
  // CHECK: tessel.parameter "table" {{.*}} #tessel.layout<{vocab = [data]}>>
  // CHECK: tessel.mul {{.*}} -> !tessel.tensor<[batch:4, vocab:8], f32, #tessel.layout<{batch = [data]}>>
  %t = tessel.parameter "table" normal scale 1.0 seed 1 : !tessel.tensor<[vocab:8], f32>
  %scaled = tessel.mul %y, %t : !tessel.tensor<[batch:4, vocab:8], f32>, !tessel.tensor<[vocab:8], f32>
      -> !tessel.tensor<[batch:4, vocab:8], f32>
  return
}
