func.func @slice_reorders(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op result must have the input's dimensions in the same order}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 4>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[seq:8, batch:2], f32>
  return
}
