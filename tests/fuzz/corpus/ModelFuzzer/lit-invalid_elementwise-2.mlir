func.func @sqrt_integer(%x: !tessel.tensor<[k:3], i1>) {
  // expected-error @+1 {{'tessel.sqrt' op expected the operand to hold floats, got 'i1'}}
  %y = tessel.sqrt %x : !tessel.tensor<[k:3], i1>
  return
}
