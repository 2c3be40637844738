func.func @constant_float_into_integers() {
  // expected-error @+1 {{'tessel.constant' op dense elements of 'f32' do not suit elements of 'i32'}}
  %c = tessel.constant dense<[1.5, 2.5]> : tensor<2xf32> -> !tessel.tensor<[k:2], i32>
  return
}
