// Outside a training step a buffer's update only yields its value.
// RUN: tessel-eval %s | FileCheck %s

// CHECK: result0: [c:2] f32 = 3 -1
func.func @main() -> !tessel.tensor<[c:2], f32> {
  %rm = tessel.parameter "rm" zeros scale 1.0 seed 0 buffer : !tessel.tensor<[c:2], f32>
  %v = tessel.constant dense<[3.0, -1.0]> : tensor<2xf32> -> !tessel.tensor<[c:2], f32>
  %u = tessel.update_buffer %rm, %v : !tessel.tensor<[c:2], f32>
  return %u : !tessel.tensor<[c:2], f32>
}
