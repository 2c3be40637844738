func.func @einsum_result_size(%a: !tessel.tensor<[i:2, j:3], f32>,
                              %b: !tessel.tensor<[j:3, k:5], f32>) {
  // expected-error @+1 {{'tessel.einsum' op result dimension 'k' has size 6 but 5 in the inputs}}
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:5], f32>)
      -> !tessel.tensor<[i:2, k:6], f32>
  return
}
