func.func @pad_unpadded_resized(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op dimension 'w' is not padded but changes size}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:5], f32>
  return
}
