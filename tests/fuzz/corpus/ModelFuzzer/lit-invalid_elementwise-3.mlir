func.func @rsqrt_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.rsqrt' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.rsqrt %x : !tessel.tensor<[k:3], i32>
  return
}
