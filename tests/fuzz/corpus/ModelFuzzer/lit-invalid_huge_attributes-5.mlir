func.func @slice_end_overflows(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op start 9223372036854775807 of dimension 'seq' and the result's size 8 end the slice past 2^63 - 1, outside its size 16}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 9223372036854775807>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}

