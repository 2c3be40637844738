func.func @layer_norm_result_shape(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.layer_norm' op result '!tessel.tensor<[hidden:8, batch:4], f32>' must have the dimensions and element type of the operand '!tessel.tensor<[batch:4, hidden:8], f32>'}}
  %n = tessel.layer_norm %x over ["hidden"] epsilon 1.0e-05
      : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  return
}
