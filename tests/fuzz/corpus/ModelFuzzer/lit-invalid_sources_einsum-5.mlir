func.func @constant_array() {
  // expected-error @+1 {{'tessel.constant' op value must be a float, an integer or dense elements}}
  %c = tessel.constant [1.0, 2.0] -> !tessel.tensor<[k:2], f32>
  return
}
