!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_negative_padding(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected four non-negative paddings [low_h, high_h, low_w, high_w]}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, -1, 1>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:28, w:26], f32>
  return
}
