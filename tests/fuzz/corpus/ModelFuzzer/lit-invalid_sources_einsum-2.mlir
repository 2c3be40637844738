func.func @parameter_integer() {
  // expected-error @+1 {{'tessel.parameter' op expected a parameter to hold floats, got 'i32'}}
  %w = tessel.parameter "w" zeros scale 1.0 seed 0 : !tessel.tensor<[hidden:8], i32>
  return
}
