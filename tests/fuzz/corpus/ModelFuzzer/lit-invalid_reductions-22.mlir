func.func @layer_norm_zero_epsilon(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op epsilon must be positive}}
  %n = tessel.layer_norm %x over ["hidden"] epsilon 0.0 : !tessel.tensor<[batch:4, hidden:8], f32>
  return
}
