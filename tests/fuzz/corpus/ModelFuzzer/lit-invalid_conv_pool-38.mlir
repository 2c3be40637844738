func.func @conv_repeated_kernel(%x: !tessel.tensor<[c:1, h:4, w:4], f32>,
                                %k: !tessel.tensor<[c:1, f:2, kh:2, kw:2], f32>) {
  // expected-error @+1 {{'tessel.conv2d' op kernel lists dimension 'kh' twice}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"],
                             kernel = ["kh", "kh"]}
      : !tessel.tensor<[c:1, h:4, w:4], f32>, !tessel.tensor<[c:1, f:2, kh:2, kw:2], f32>
      -> !tessel.tensor<[f:2, h:3, w:3], f32>
  return
}
