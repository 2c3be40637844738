func.func @slice_missing_dim(%x: !tessel.tensor<[batch:2, seq:16], f32>) {
  // expected-error @+1 {{'tessel.slice' op input has no dimension 'key'}}
  %s = tessel.slice %x {dims = ["key"], starts = array<i64: 4>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:2, seq:8], f32>
  return
}
