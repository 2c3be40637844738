func.func @pad_missing_dim(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op input has no dimension 'x'}}
  %p = tessel.pad %x {dims = ["x"], low = array<i64: 1>, high = array<i64: 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], f32>
  return
}
