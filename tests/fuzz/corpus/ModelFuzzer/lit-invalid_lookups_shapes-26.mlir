func.func @slice_unsliced_resized(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op dimension 'batch' is not sliced but changes size}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 4>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:1, seq:8], f32>
  return
}
