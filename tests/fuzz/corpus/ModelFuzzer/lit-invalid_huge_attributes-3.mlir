// The gradients' verifiers are the convolution's: low + high alone overflow.
!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
!dy = !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
func.func @conv_backward_filter_padding_overflows(%x: !x, %dy: !dy) {
  // expected-error @+1 {{'tessel.conv2d_backward_filter' op padding [4611686018427387904, 4611686018427387904] of dimension 'w' (size 28) makes it larger than 2^63 - 1}}
  %dk = tessel.conv2d_backward_filter %x, %dy {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 0, 0, 4611686018427387904, 4611686018427387904>}
      : !x, !dy -> !k
  return
}

