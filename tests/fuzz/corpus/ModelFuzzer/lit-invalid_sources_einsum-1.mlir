func.func @parameter_negative_scale() {
  // expected-error @+1 {{'tessel.parameter' op scale must not be negative}}
  %w = tessel.parameter "w" uniform scale -0.5 seed 1 : !tessel.tensor<[hidden:8], f32>
  return
}
