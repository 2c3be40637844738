func.func @layer_norm_negative_epsilon(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op epsilon must be positive}}
  %n = tessel.layer_norm %x over ["hidden"] epsilon -1.0e-05 : !tessel.tensor<[batch:4, hidden:8], f32>
  return
}
