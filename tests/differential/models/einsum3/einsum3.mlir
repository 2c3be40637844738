// Einsums of three and four inputs, for the differential sweep: a
// low-rank projection x . u . v, whose `head` only u has (summed first),
// and logits that add two paths in one contraction, tanh(h) . w and
// x . m, both over `batch` and `cls`. tessel-decompose-einsum splits them
// into pairwise einsums before the training step and the layouts are made,
// so the layouts split the intermediates too (by name, as every tensor).
!x = !tessel.tensor<[batch:8, feat:6], f32>
!u = !tessel.tensor<[feat:6, rank:3, head:2], f32>
!v = !tessel.tensor<[rank:3, hid:4], f32>
!h = !tessel.tensor<[batch:8, hid:4], f32>
!w = !tessel.tensor<[hid:4, cls:4], f32>
!m = !tessel.tensor<[feat:6, cls:4], f32>
!logits = !tessel.tensor<[batch:8, cls:4], f32>
!scalar = !tessel.tensor<[], f32>

func.func @forward(%x: !x {tessel.name = "x"},
                   %labels: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"})
    -> !scalar {
  %u = tessel.parameter "u" normal scale 0.4 seed 1 : !u
  %v = tessel.parameter "v" normal scale 0.5 seed 2 : !v
  %w = tessel.parameter "w" normal scale 0.5 seed 3 : !w
  %m = tessel.parameter "m" normal scale 0.3 seed 4 : !m
  %h = tessel.einsum %x, %u, %v {tessel.name = "h"} : (!x, !u, !v) -> !h
  %a = tessel.tanh %h : !h
  // One contraction of the four: sum over hid of a * w, times the sum
  // over feat of x * m, i.e. (a . w) * (x . m) per example and class.
  %logits = tessel.einsum %a, %w, %x, %m {tessel.name = "logits"}
      : (!h, !w, !x, !m) -> !logits
  %losses = tessel.softmax_cross_entropy %logits, %labels over "cls"
      : !logits, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:8], f32> -> !scalar
  return %loss : !scalar
}
