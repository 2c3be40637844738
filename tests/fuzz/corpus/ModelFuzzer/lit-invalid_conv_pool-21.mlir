!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], bf16>
func.func @conv_element_types(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected one element type, got 'f32' and 'bf16'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}
