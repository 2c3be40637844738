func.func @gelu_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.gelu' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.gelu %x : !tessel.tensor<[k:3], i32>
  return
}
