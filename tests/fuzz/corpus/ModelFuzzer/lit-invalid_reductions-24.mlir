func.func @layer_norm_repeated_dim(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op dims lists dimension 'hidden' twice}}
  %n = tessel.layer_norm %x over ["hidden", "batch", "hidden"] epsilon 1.0e-05
      : !tessel.tensor<[batch:4, hidden:8], f32>
  return
}
