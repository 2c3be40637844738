func.func @pad_repeated_dim(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op dims lists dimension 'h' twice}}
  %p = tessel.pad %x {dims = ["h", "h"], low = array<i64: 1, 1>, high = array<i64: 2, 2>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], f32>
  return
}
