func.func @tanh_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.tanh' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.tanh %x : !tessel.tensor<[k:3], i32>
  return
}
