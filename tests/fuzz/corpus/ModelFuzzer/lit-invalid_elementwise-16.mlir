func.func @min_result_dim_from_nowhere(%x: !tessel.tensor<[hidden:8], f32>,
                                       %b: !tessel.tensor<[hidden:8], f32>) {
  // expected-error @+1 {{'tessel.min' op result dimension 'batch' does not come from any operand}}
  %y = tessel.min %x, %b
      : !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32>
  return
}
