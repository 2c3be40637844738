func.func @layer_norm_missing_dim(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op input has no dimension 'd_model'}}
  %n = tessel.layer_norm %x over ["d_model"] epsilon 1.0e-05 : !tessel.tensor<[batch:4, hidden:8], f32>
  return
}
