// Attributes whose size arithmetic passes 2^63 - 1 are errors naming the op
// and the attribute, not signed overflow (undefined behaviour) in the
// verifier: a model file can give any i64 for a padding, dilation, start or
// halo, and sizes that fit one by one can add up past int64_t. Tensors
// themselves are bounded by the !tessel.tensor verifier
// (invalid_huge_types.mlir), which also bounds every element count a
// verifier takes (tessel.reshape's).
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// A dilated kernel spans dilation * (size - 1) + 1 elements: 2^62 * 2 + 1.
!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_dilation_overflows(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op dilation 4611686018427387904 of kernel 'kh' (size 3) makes the dilated kernel larger than 2^63 - 1}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], dilations = array<i64: 4611686018427387904, 1>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:1, w:26], f32>
  return
}

