// Errors of the verifiers of parameter, constant, iota and einsum.

func.func @parameter_empty_name() {
  // expected-error @+1 {{'tessel.parameter' op parameter name must not be empty}}
  %w = tessel.parameter "" normal scale 0.02 seed 1 : !tessel.tensor<[hidden:8], f32>
  return
}
