func.func @concat_no_inputs() {
  // expected-error @+1 {{'tessel.concat' op expected at least one input}}
  %c = tessel.concat over "seq" : () -> !tessel.tensor<[seq:6], f32>
  return
}
