func.func @sigmoid_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.sigmoid' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.sigmoid %x : !tessel.tensor<[k:3], i32>
  return
}
