func.func @pad_lengths(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op expected one low and one high per padded dimension}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2, 0>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], f32>
  return
}
