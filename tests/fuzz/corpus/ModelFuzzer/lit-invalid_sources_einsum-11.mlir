func.func @einsum_result_dim_unknown(%a: !tessel.tensor<[i:2, j:3], f32>,
                                     %b: !tessel.tensor<[j:3, k:5], f32>) {
  // expected-error @+1 {{'tessel.einsum' op result dimension 'l' does not appear in any input}}
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:5], f32>)
      -> !tessel.tensor<[i:2, l:5], f32>
  return
}
