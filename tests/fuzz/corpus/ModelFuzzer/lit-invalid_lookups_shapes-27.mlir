func.func @slice_past_end(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op slice [10, 18) of dimension 'seq' is outside its size 16}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 10>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}
