func.func @abs_size_change(%x: !tessel.tensor<[k:3], f32>) {
  // expected-error @+1 {{'tessel.abs' op result '!tessel.tensor<[k:4], f32>' must have the dimensions and element type of the operand '!tessel.tensor<[k:3], f32>'}}
  %y = tessel.abs %x : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:4], f32>
  return
}
