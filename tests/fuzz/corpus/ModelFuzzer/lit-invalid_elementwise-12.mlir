func.func @sub_lhs_dim_not_in_result(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                                     %b: !tessel.tensor<[hidden:8], f32>) {
  // expected-error @+1 {{'tessel.sub' op operand #0 has dimension 'batch', which the result does not have}}
  %y = tessel.sub %x, %b
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[hidden:8], f32>
  return
}
