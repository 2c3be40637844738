// 2^63 - 1 exactly fits, and is then too large for the input.
!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_largest_dilation(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op kernel 'kh' is larger than the padded dimension 'h'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], dilations = array<i64: 4611686018427387903, 1>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:1, w:26], f32>
  return
}

