// The shape is checked before the element type.
func.func @exp_transposed(%x: !tessel.tensor<[a:2, b:3], i32>) {
  // expected-error @+1 {{'tessel.exp' op result '!tessel.tensor<[b:3, a:2], i32>' must have the dimensions and element type of the operand '!tessel.tensor<[a:2, b:3], i32>'}}
  %y = tessel.exp %x : !tessel.tensor<[a:2, b:3], i32> -> !tessel.tensor<[b:3, a:2], i32>
  return
}
