// Cross-entropy with its classes split over ranks fails on a label outside
// the classes, as on one rank, instead of adding nothing to the loss: each
// rank looks the labels up in a table of the classes, which refuses them.
// In range, the split loss is the one-rank loss.
// RUN: tessel-eval %s --input logits=%S/Inputs/ce_logits.npy --input labels=%S/Inputs/ce_labels.npy | FileCheck %s --check-prefix=ONE
// RUN: tessel-opt %s --tessel-apply-layout="mesh=model:2 rules=k:model" --tessel-partition -o %t.mlir
// RUN: tessel-eval %t.mlir --input logits=%S/Inputs/ce_logits.npy --input labels=%S/Inputs/ce_labels.npy | FileCheck %s --check-prefix=SPLIT
// RUN: not tessel-eval %s --input logits=%S/Inputs/ce_logits.npy --input labels=%S/Inputs/ce_labels_out_of_range.npy 2>&1 | FileCheck %s --check-prefix=ONEBAD
// RUN: not tessel-eval %t.mlir --input logits=%S/Inputs/ce_logits.npy --input labels=%S/Inputs/ce_labels_out_of_range.npy 2>&1 | FileCheck %s --check-prefix=SPLITBAD
// ONE: result0: [batch:4] f32 = 2.455550{{[0-9]}} 2.155550{{[0-9]}} 1.755550{{[0-9]}} 1.955550{{[0-9]}}
// SPLIT: result0: [batch:4] f32 = 2.455550{{[0-9]}} 2.155550{{[0-9]}} 1.755550{{[0-9]}} 1.955550{{[0-9]}}
// ONEBAD: error: label 8 at (batch=2) is outside the class range [0, 8)
// SPLITBAD: error: id 8 at (batch=2) is outside the vocabulary range [0, 8) (on rank 0)
func.func @split_classes(%logits: !tessel.tensor<[batch:4, k:8], f32> {tessel.name = "logits"},
                         %labels: !tessel.tensor<[batch:4], i32> {tessel.name = "labels"}) -> !tessel.tensor<[batch:4], f32> {
  %l = tessel.softmax_cross_entropy %logits, %labels over "k"
      : !tessel.tensor<[batch:4, k:8], f32>, !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4], f32>
  return %l : !tessel.tensor<[batch:4], f32>
}
