func.func @add_operand_dim_not_in_result(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                                         %b: !tessel.tensor<[extra:8], f32>) {
  // expected-error @+1 {{'tessel.add' op operand #1 has dimension 'extra', which the result does not have}}
  %y = tessel.add %x, %b
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[extra:8], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32>
  return
}
