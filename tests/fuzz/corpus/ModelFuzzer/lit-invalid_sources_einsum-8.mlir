func.func @einsum_no_inputs() {
  // expected-error @+1 {{'tessel.einsum' op expected at least one input}}
  %r = tessel.einsum : () -> !tessel.tensor<[], f32>
  return
}
