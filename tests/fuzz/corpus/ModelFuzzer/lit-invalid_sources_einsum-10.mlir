// The mismatch is found in the third input as well.
func.func @einsum_size_mismatch_third(%a: !tessel.tensor<[i:2], f32>,
                                      %b: !tessel.tensor<[j:3], f32>,
                                      %c: !tessel.tensor<[i:7], f32>) {
  // expected-error @+1 {{'tessel.einsum' op dimension 'i' has size 2 in one input but 7 in input #2}}
  %r = tessel.einsum %a, %b, %c
      : (!tessel.tensor<[i:2], f32>, !tessel.tensor<[j:3], f32>, !tessel.tensor<[i:7], f32>)
      -> !tessel.tensor<[], f32>
  return
}
