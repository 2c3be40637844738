func.func @einsum_result_element_type(%a: !tessel.tensor<[i:2, j:3], f32>,
                                      %b: !tessel.tensor<[j:3, k:5], f32>) {
  // expected-error @+1 {{'tessel.einsum' op expected one element type, got 'f32' and 'f16'}}
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:5], f32>)
      -> !tessel.tensor<[i:2, k:5], f16>
  return
}
