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

// -----

// 2^63 - 1 exactly fits, and is then too large for the input.
!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_largest_dilation(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op kernel 'kh' is larger than the padded dimension 'h'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], dilations = array<i64: 4611686018427387903, 1>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:1, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_padding_overflows(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op padding [9223372036854775807, 0] of dimension 'h' (size 28) makes it larger than 2^63 - 1}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 9223372036854775807, 0, 0, 0>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

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

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_padding_overflows(%y: !y) {
  // The padding is smaller than the window, as pooling requires.
  // expected-error @+1 {{'tessel.pool' op padding [9223372036854775806, 0] of dimension 'h' (size 28) makes it larger than 2^63 - 1}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 9223372036854775807, 2>, padding = array<i64: 9223372036854775806, 0, 0, 0>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:1, w:27], f32>
  return
}

// -----

func.func @slice_end_overflows(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op start 9223372036854775807 of dimension 'seq' and the result's size 8 end the slice past 2^63 - 1, outside its size 16}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 9223372036854775807>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}

// -----

// An end of exactly 2^63 - 1 is an ordinary slice outside the dimension.
func.func @slice_largest_end(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op slice [9223372036854775799, 9223372036854775807) of dimension 'seq' is outside its size 16}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 9223372036854775799>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}

// -----

func.func @pad_overflows(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op low 9223372036854775807 and high 1 of dimension 'h' (size 4) make it larger than 2^63 - 1}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 9223372036854775807>, high = array<i64: 1>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:4, w:3], f32>
  return
}

// -----

// Each input fits (2^62 bytes of i1), their sum does not.
!half = !tessel.tensor<[seq:4611686018427387904], i1>
func.func @concat_overflows(%a: !half, %b: !half) {
  // expected-error @+1 {{'tessel.concat' op the sizes of dimension 'seq' add up to more than 2^63 - 1}}
  %c = tessel.concat %a, %b over "seq" : (!half, !half) -> !tessel.tensor<[seq:1], i1>
  return
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_overflows(%x: !tessel.tensor<[hidden:4611686018427387904], i1>) {
    // expected-error @+1 {{'tessel.all_gather' op dimension 'hidden' of size 4611686018427387904 times the 4 ranks of the group is larger than 2^63 - 1}}
    %g = tessel.all_gather %x along "hidden" over ["model"]
        : !tessel.tensor<[hidden:4611686018427387904], i1> -> !tessel.tensor<[hidden:1], i1>
    return
  }
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_overflows(%x: !tessel.tensor<[h:4611686018427387904], i1>) {
    // expected-error @+1 {{'tessel.halo_exchange' op halo [4611686018427387904, 4611686018427387904] of dimension 'h' (size 4611686018427387904) makes it larger than 2^63 - 1}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [4611686018427387904, 4611686018427387904]
        : !tessel.tensor<[h:4611686018427387904], i1> -> !tessel.tensor<[h:1], i1>
    return
  }
}

// -----

// ceil((2^63 - 1) / 4) without computing 2^63 - 1 + 3: the largest tensor
// slices into blocks of 2^61.
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_of_the_largest(%x: !tessel.tensor<[n:9223372036854775807], i1>) {
    %s = tessel.shard_slice %x along "n" over ["model"]
        : !tessel.tensor<[n:9223372036854775807], i1> -> !tessel.tensor<[n:2305843009213693952], i1>
    return
  }
}
