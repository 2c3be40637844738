func.func @einsum_element_types(%a: !tessel.tensor<[i:2, j:3], f32>,
                                %b: !tessel.tensor<[j:3, k:5], bf16>) {
  // expected-error @+1 {{'tessel.einsum' op expected one element type, got 'f32' and 'bf16'}}
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:5], bf16>)
      -> !tessel.tensor<[i:2, k:5], f32>
  return
}
