func.func @neg_dims_change(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.neg' op result '!tessel.tensor<[j:3], i32>' must have the dimensions and element type of the operand '!tessel.tensor<[k:3], i32>'}}
  %y = tessel.neg %x : !tessel.tensor<[k:3], i32> -> !tessel.tensor<[j:3], i32>
  return
}
