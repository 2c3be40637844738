func.func @constant_integer_splat_into_floats() {
  // expected-error @+1 {{'tessel.constant' op value 1 : i32 does not suit elements of 'f32'}}
  %c = tessel.constant 1 : i32 -> !tessel.tensor<[k:2], f32>
  return
}
