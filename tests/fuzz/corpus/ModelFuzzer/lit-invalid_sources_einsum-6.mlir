func.func @constant_count() {
  // expected-error @+1 {{'tessel.constant' op value has 3 elements but the result has 4}}
  %c = tessel.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> !tessel.tensor<[i:2, j:2], f32>
  return
}
