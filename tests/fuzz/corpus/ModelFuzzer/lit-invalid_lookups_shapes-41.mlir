func.func @pad_negative(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op padding of 'w' must not be negative}}
  %p = tessel.pad %x {dims = ["h", "w"], low = array<i64: 1, 0>, high = array<i64: 2, -1>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:2], f32>
  return
}
