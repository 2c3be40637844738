// Dilation makes the kernel's extent 2 * (3 - 1) + 1 = 5 > 4.
!x = !tessel.tensor<[batch:8, c:1, h:28, w:4], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_dilated_kernel_too_large(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op kernel 'kw' is larger than the padded dimension 'w'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], dilations = array<i64: 1, 2>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:1], f32>
  return
}
