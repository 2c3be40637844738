// tessel-eval's values of tessel.dropout and of grouped convolutions.
// RUN: tessel-eval %s | FileCheck %s

// Dropout of ones at rate 0.5 keeps some elements, each scaled to 2, and
// drops the others; rate 0 keeps all. Another step draws another mask, the
// same step the same one (result2: the masks of steps 0 and 1 differ,
// result3: two dropouts of step 0 agree).
// CHECK: result0: [k:8] f32 = {{[02]( [02]){7} ?$}}
// CHECK-NEXT: result1: [k:8] f32 = 1 1 1 1 1 1 1 1
// CHECK-NEXT: result2: [] i1 = 1
// CHECK-NEXT: result3: [] i1 = 1
// Grouped: x = [1, 2] over c, 2 groups of 1 channel, filter [c:1, f:4] =
// [1, 2, 3, 4]: outputs 0-1 see channel 0, outputs 2-3 channel 1.
// CHECK-NEXT: result4: [n:1, f:4, h:1, w:1] f32 = 1 2 6 8
// Depthwise (groups = channels = 2), filter [c:1, f:2] = [3, 5].
// CHECK-NEXT: result5: [n:1, f:2, h:1, w:1] f32 = 3 10
!k = !tessel.tensor<[k:8], f32>
func.func @main() -> (!k, !k, !tessel.tensor<[], i1>, !tessel.tensor<[], i1>,
                      !tessel.tensor<[n:1, f:4, h:1, w:1], f32>,
                      !tessel.tensor<[n:1, f:2, h:1, w:1], f32>) {
  %ones = tessel.constant 1.0 : f32 -> !k
  %s0 = tessel.constant 0 : i64 -> !tessel.tensor<[], i64>
  %s1 = tessel.constant 1 : i64 -> !tessel.tensor<[], i64>
  %d = tessel.dropout %ones step %s0 rate 0.5 seed 1 : !k, !tessel.tensor<[], i64>
  %all = tessel.dropout %ones step %s0 rate 0.0 seed 1 : !k, !tessel.tensor<[], i64>
  %e = tessel.dropout %ones step %s1 rate 0.5 seed 1 : !k, !tessel.tensor<[], i64>
  %same = tessel.dropout %ones step %s0 rate 0.5 seed 1 : !k, !tessel.tensor<[], i64>
  %ne = tessel.compare eq, %d, %e : !k, !k -> !tessel.tensor<[k:8], i1>
  %neq = tessel.cast %ne : !tessel.tensor<[k:8], i1> -> !k
  %alleq = tessel.reduce min %neq : !k -> !tessel.tensor<[], f32>
  %zero = tessel.constant 0.0 : f32 -> !tessel.tensor<[], f32>
  %differ = tessel.compare eq, %alleq, %zero : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], i1>
  %diff = tessel.sub %d, %same : !k, !k -> !k
  %adiff = tessel.abs %diff : !k
  %maxdiff = tessel.reduce max %adiff : !k -> !tessel.tensor<[], f32>
  %agree = tessel.compare eq, %maxdiff, %zero : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], i1>
  %x = tessel.constant dense<[[[[1.0]], [[2.0]]]]> : tensor<1x2x1x1xf32> -> !tessel.tensor<[n:1, c:2, h:1, w:1], f32>
  %g = tessel.constant dense<[[[[1.0]], [[2.0]], [[3.0]], [[4.0]]]]> : tensor<1x4x1x1xf32> -> !tessel.tensor<[c:1, f:4, kh:1, kw:1], f32>
  %y = tessel.conv2d %x, %g {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 2}
      : !tessel.tensor<[n:1, c:2, h:1, w:1], f32>, !tessel.tensor<[c:1, f:4, kh:1, kw:1], f32>
      -> !tessel.tensor<[n:1, f:4, h:1, w:1], f32>
  %dw = tessel.constant dense<[[[[3.0]], [[5.0]]]]> : tensor<1x2x1x1xf32> -> !tessel.tensor<[c:1, f:2, kh:1, kw:1], f32>
  %z = tessel.conv2d %x, %dw {input_channel = "c", output_channel = "f",
                              spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 2}
      : !tessel.tensor<[n:1, c:2, h:1, w:1], f32>, !tessel.tensor<[c:1, f:2, kh:1, kw:1], f32>
      -> !tessel.tensor<[n:1, f:2, h:1, w:1], f32>
  return %d, %all, %differ, %agree, %y, %z
      : !k, !k, !tessel.tensor<[], i1>, !tessel.tensor<[], i1>,
        !tessel.tensor<[n:1, f:4, h:1, w:1], f32>, !tessel.tensor<[n:1, f:2, h:1, w:1], f32>
}
