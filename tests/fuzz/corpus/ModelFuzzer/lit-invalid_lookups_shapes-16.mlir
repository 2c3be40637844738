func.func @reshape_count(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.reshape' op input has 32 elements but the result has 24}}
  %r = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, heads:2, head_dim:3], f32>
  return
}
