func.func @max_result_size(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                           %b: !tessel.tensor<[hidden:8], f32>) {
  // expected-error @+1 {{'tessel.max' op dimension 'batch' has size 4 in operand #0 but 5 in the result}}
  %y = tessel.max %x, %b
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[batch:5, hidden:8], f32>
  return
}
