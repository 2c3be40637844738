func.func @pad_overflows(%x: !tessel.tensor<[h:4, w:3], f32>) {
  // expected-error @+1 {{'tessel.pad' op low 9223372036854775807 and high 1 of dimension 'h' (size 4) make it larger than 2^63 - 1}}
  %p = tessel.pad %x {dims = ["h"], low = array<i64: 9223372036854775807>, high = array<i64: 1>}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:4, w:3], f32>
  return
}

