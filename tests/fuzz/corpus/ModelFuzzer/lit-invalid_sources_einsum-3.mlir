func.func @parameter_bad_init() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'init' [zeros, ones, uniform, normal]}}
  %w = tessel.parameter "w" xavier scale 1.0 seed 0 : !tessel.tensor<[hidden:8], f32>
  return
}
