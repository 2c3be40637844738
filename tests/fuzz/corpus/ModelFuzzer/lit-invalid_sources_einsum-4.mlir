func.func @constant_string() {
  // expected-error @+1 {{'tessel.constant' op value must be a float, an integer or dense elements}}
  %c = tessel.constant "one" -> !tessel.tensor<[], f32>
  return
}
