!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_one_kernel(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected two kernel dimensions}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}
