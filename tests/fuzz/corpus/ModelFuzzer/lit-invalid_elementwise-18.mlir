func.func @add_result_element_type(%x: !tessel.tensor<[hidden:8], f32>,
                                   %b: !tessel.tensor<[hidden:8], f32>) {
  // expected-error @+1 {{'tessel.add' op expected one element type, got 'f32' and 'bf16'}}
  %y = tessel.add %x, %b
      : !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[hidden:8], bf16>
  return
}
