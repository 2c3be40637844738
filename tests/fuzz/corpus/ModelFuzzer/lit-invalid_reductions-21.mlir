func.func @layer_norm_no_dims(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op expected at least one dimension to normalise}}
  %n = tessel.layer_norm %x over [] epsilon 1.0e-05 : !tessel.tensor<[batch:4, hidden:8], f32>
  return
}
