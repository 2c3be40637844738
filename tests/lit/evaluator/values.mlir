// Checks tessel-eval's printed results against hand-computed values.
// RUN: tessel-eval %s | FileCheck %s

// a = [[1, 2, 3], [4, 5, 6]], b = [1, 0, -1]
// einsum over j: [1 - 3, 4 - 6] = [-2, -2]
// add with b broadcast over i: [[2, 2, 2], [5, 5, 5]]
// reduce max over i: [4, 5, 6]
// CHECK: result0: [i:2] f32 = -2 -2
// CHECK-NEXT: result1: [i:2, j:3] f32 = 2 2 2 5 5 5
// CHECK-NEXT: result2: [j:3] f32 = 4 5 6
func.func @main() -> (!tessel.tensor<[i:2], f32>, !tessel.tensor<[i:2, j:3], f32>,
                      !tessel.tensor<[j:3], f32>) {
  %a = tessel.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
      -> !tessel.tensor<[i:2, j:3], f32>
  %b = tessel.constant dense<[1.0, 0.0, -1.0]> : tensor<3xf32>
      -> !tessel.tensor<[j:3], f32>
  %c = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3], f32>)
      -> !tessel.tensor<[i:2], f32>
  %d = tessel.add %a, %b
      : !tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3], f32>
      -> !tessel.tensor<[i:2, j:3], f32>
  %e = tessel.reduce max %a
      : !tessel.tensor<[i:2, j:3], f32> -> !tessel.tensor<[j:3], f32>
  return %c, %d, %e : !tessel.tensor<[i:2], f32>, !tessel.tensor<[i:2, j:3], f32>,
                      !tessel.tensor<[j:3], f32>
}
