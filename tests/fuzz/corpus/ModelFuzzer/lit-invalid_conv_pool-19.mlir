// Strided: (28 + 1 + 1 - 3) / 2 + 1 = 14.
!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_result_strided_size(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op result dimension 'w' has size 15, expected 14}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:14, w:15], f32>
  return
}
