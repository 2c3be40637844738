// Checks tessel-eval's values of top_k (values and indices) against
// hand-computed ones: ties go to the smaller index, NaN ranks first, and a
// result may list its dims in another order.
// RUN: tessel-eval %s | FileCheck %s

// a = [[1, 3, 2, 3], [2, 2, -1, 5]] over [i:2, j:4]
// top 2 over j: values [[3, 3], [5, 2]] at [[1, 3], [3, 0]]
// top 2 over i (into r), stored [r, j] and [j, r]:
//   values [[2, 3, 2, 5], [1, 2, -1, 3]], indices [[1, 0], [0, 1], [0, 1], [1, 0]]
// top 4 over j of [1, nan, 4, nan]: nan, nan, 4, 1 at 1, 3, 2, 0
// CHECK: result0: [i:2, c:2] f32 = 3 3 5 2
// CHECK-NEXT: result1: [i:2, c:2] i32 = 1 3 3 0
// CHECK-NEXT: result2: [r:2, j:4] f32 = 2 3 2 5 1 2 -1 3
// CHECK-NEXT: result3: [j:4, r:2] i64 = 1 0 0 1 0 1 1 0
// CHECK-NEXT: result4: [c:4] f32 = nan nan 4 1
// CHECK-NEXT: result5: [c:4] i32 = 1 3 2 0
func.func @main() -> (!tessel.tensor<[i:2, c:2], f32>, !tessel.tensor<[i:2, c:2], i32>,
                      !tessel.tensor<[r:2, j:4], f32>, !tessel.tensor<[j:4, r:2], i64>,
                      !tessel.tensor<[c:4], f32>, !tessel.tensor<[c:4], i32>) {
  %a = tessel.constant dense<[[1.0, 3.0, 2.0, 3.0], [2.0, 2.0, -1.0, 5.0]]> : tensor<2x4xf32>
      -> !tessel.tensor<[i:2, j:4], f32>
  %v = tessel.top_k %a over "j" k 2 as "c"
      : !tessel.tensor<[i:2, j:4], f32> -> !tessel.tensor<[i:2, c:2], f32>
  %x = tessel.top_k %a over "j" k 2 as "c" indices
      : !tessel.tensor<[i:2, j:4], f32> -> !tessel.tensor<[i:2, c:2], i32>
  %vi = tessel.top_k %a over "i" k 2 as "r"
      : !tessel.tensor<[i:2, j:4], f32> -> !tessel.tensor<[r:2, j:4], f32>
  %xi = tessel.top_k %a over "i" k 2 as "r" indices
      : !tessel.tensor<[i:2, j:4], f32> -> !tessel.tensor<[j:4, r:2], i64>
  %n = tessel.constant dense<[1.0, 0x7FC00000, 4.0, 0x7FC00000]> : tensor<4xf32>
      -> !tessel.tensor<[j:4], f32>
  %nv = tessel.top_k %n over "j" k 4 as "c"
      : !tessel.tensor<[j:4], f32> -> !tessel.tensor<[c:4], f32>
  %nx = tessel.top_k %n over "j" k 4 as "c" indices
      : !tessel.tensor<[j:4], f32> -> !tessel.tensor<[c:4], i32>
  return %v, %x, %vi, %xi, %nv, %nx
      : !tessel.tensor<[i:2, c:2], f32>, !tessel.tensor<[i:2, c:2], i32>,
        !tessel.tensor<[r:2, j:4], f32>, !tessel.tensor<[j:4, r:2], i64>,
        !tessel.tensor<[c:4], f32>, !tessel.tensor<[c:4], i32>
}
