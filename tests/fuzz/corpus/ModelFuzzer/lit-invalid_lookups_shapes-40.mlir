func.func @pad_reorders(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op result must have the input's dimensions in the same order}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[w:3, h:7], f32>
  return
}
