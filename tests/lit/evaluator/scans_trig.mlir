// Checks tessel-eval's values of cumsum, argmax, sin and cos against
// hand-computed ones.
// RUN: tessel-eval %s | FileCheck %s

// a = [[1, 3, 2], [2, 2, -1]] over [i:2, j:3]
// cumsum over j: [[1, 4, 6], [2, 4, 3]]
// cumsum over j, reverse: [[6, 5, 2], [3, 1, -1]]
// cumsum over i, into a result stored [j, i]: [[1, 3], [3, 5], [2, 1]]
// argmax over j: [1, 0] (the first of the two 2s); over i: [1, 0, 0]
// CHECK: result0: [i:2, j:3] f32 = 1 4 6 2 4 3
// CHECK-NEXT: result1: [i:2, j:3] f32 = 6 5 2 3 1 -1
// CHECK-NEXT: result2: [j:3, i:2] f32 = 1 3 3 5 2 1
// CHECK-NEXT: result3: [i:2] i32 = 1 0
// CHECK-NEXT: result4: [j:3] i64 = 1 0 0
// CHECK-NEXT: result5: [k:3] f32 = 0 0.84147096 -0.84147096
// CHECK-NEXT: result6: [k:3] f32 = 1 0.54030228 0.54030228
func.func @main() -> (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[i:2, j:3], f32>,
                      !tessel.tensor<[j:3, i:2], f32>, !tessel.tensor<[i:2], i32>,
                      !tessel.tensor<[j:3], i64>, !tessel.tensor<[k:3], f32>,
                      !tessel.tensor<[k:3], f32>) {
  %a = tessel.constant dense<[[1.0, 3.0, 2.0], [2.0, 2.0, -1.0]]> : tensor<2x3xf32>
      -> !tessel.tensor<[i:2, j:3], f32>
  %c = tessel.cumsum %a over "j" : !tessel.tensor<[i:2, j:3], f32>
  %r = tessel.cumsum %a over "j" reverse : !tessel.tensor<[i:2, j:3], f32>
  %t = tessel.transpose %a : !tessel.tensor<[i:2, j:3], f32> -> !tessel.tensor<[j:3, i:2], f32>
  %ci = tessel.cumsum %t over "i" : !tessel.tensor<[j:3, i:2], f32>
  %mj = tessel.argmax %a over "j" : !tessel.tensor<[i:2, j:3], f32> -> !tessel.tensor<[i:2], i32>
  %mi = tessel.argmax %a over "i" : !tessel.tensor<[i:2, j:3], f32> -> !tessel.tensor<[j:3], i64>
  %x = tessel.constant dense<[0.0, 1.0, -1.0]> : tensor<3xf32> -> !tessel.tensor<[k:3], f32>
  %s = tessel.sin %x : !tessel.tensor<[k:3], f32>
  %co = tessel.cos %x : !tessel.tensor<[k:3], f32>
  return %c, %r, %ci, %mj, %mi, %s, %co
      : !tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[i:2, j:3], f32>,
        !tessel.tensor<[j:3, i:2], f32>, !tessel.tensor<[i:2], i32>,
        !tessel.tensor<[j:3], i64>, !tessel.tensor<[k:3], f32>,
        !tessel.tensor<[k:3], f32>
}
