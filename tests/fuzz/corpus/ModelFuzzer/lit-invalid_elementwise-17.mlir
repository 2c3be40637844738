func.func @pow_element_types(%x: !tessel.tensor<[hidden:8], f32>,
                             %b: !tessel.tensor<[hidden:8], f16>) {
  // expected-error @+1 {{'tessel.pow' op expected one element type, got 'f32' and 'f16'}}
  %y = tessel.pow %x, %b
      : !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[hidden:8], f16>
      -> !tessel.tensor<[hidden:8], f32>
  return
}
