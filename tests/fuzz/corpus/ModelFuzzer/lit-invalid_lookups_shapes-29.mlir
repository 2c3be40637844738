func.func @slice_element_type(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op expected one element type, got 'f32' and 'bf16'}}
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 0>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], bf16>
  return
}
