// Unary ops keep the dimensions and element type; only the layout may change.
func.func @relu_element_type_change(%x: !tessel.tensor<[k:3], f32>) {
  // expected-error @+1 {{'tessel.relu' op result '!tessel.tensor<[k:3], f16>' must have the dimensions and element type of the operand '!tessel.tensor<[k:3], f32>'}}
  %y = tessel.relu %x : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f16>
  return
}
