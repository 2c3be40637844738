func.func @slice_lengths(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op expected one start per sliced dimension}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 4, 0>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}
