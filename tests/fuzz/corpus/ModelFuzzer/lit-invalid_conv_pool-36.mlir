func.func @conv_kernel_too_large_strided(%x: !tessel.tensor<[c:1, h:3, w:3], f32>,
                                         %k: !tessel.tensor<[c:1, f:2, kh:4, kw:1], f32>) {
  // expected-error @+1 {{'tessel.conv2d' op kernel 'kh' is larger than the padded dimension 'h'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"],
                             kernel = ["kh", "kw"], strides = array<i64: 2, 2>}
      : !tessel.tensor<[c:1, h:3, w:3], f32>, !tessel.tensor<[c:1, f:2, kh:4, kw:1], f32>
      -> !tessel.tensor<[f:2, h:1, w:2], f32>
  return
}
