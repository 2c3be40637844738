!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_padding_overflows(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op padding [9223372036854775807, 0] of dimension 'h' (size 28) makes it larger than 2^63 - 1}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 9223372036854775807, 0, 0, 0>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

