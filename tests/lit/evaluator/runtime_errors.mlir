// Data that the ops cannot accept is an error at the op's location, never
// a crash.
// RUN: not tessel-eval %s --input labels=%S/Inputs/bad_labels.npy 2>&1 | FileCheck %s

func.func @main(%labels: !tessel.tensor<[batch:2], i32> {tessel.name = "labels"})
    -> !tessel.tensor<[batch:2], f32> {
  %logits = tessel.constant 0.0 : f32 -> !tessel.tensor<[batch:2, classes:3], f32>
  // CHECK: runtime_errors.mlir:[[@LINE+1]]:{{[0-9]+}}: error: {{.*}}label
  %loss = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !tessel.tensor<[batch:2, classes:3], f32>, !tessel.tensor<[batch:2], i32>
      -> !tessel.tensor<[batch:2], f32>
  return %loss : !tessel.tensor<[batch:2], f32>
}
