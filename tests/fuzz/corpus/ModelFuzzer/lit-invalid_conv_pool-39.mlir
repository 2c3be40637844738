func.func @conv_filter_extra_dim(%x: !tessel.tensor<[c:1, h:4, w:4], f32>,
                                 %k: !tessel.tensor<[c:1, f:2, kh:2, z:2], f32>) {
  // expected-error @+1 {{'tessel.conv2d' op filter must have exactly the dimensions 'c', 'f' and the two kernel ones}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"],
                             kernel = ["kh", "c"]}
      : !tessel.tensor<[c:1, h:4, w:4], f32>, !tessel.tensor<[c:1, f:2, kh:2, z:2], f32>
      -> !tessel.tensor<[f:2, h:3, w:4], f32>
  return
}
