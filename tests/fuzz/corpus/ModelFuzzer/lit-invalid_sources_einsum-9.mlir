// The dialect-level case "an einsum whose dim sizes disagree".
func.func @einsum_size_mismatch(%a: !tessel.tensor<[i:2, j:3], f32>,
                                %b: !tessel.tensor<[j:4, k:5], f32>) {
  // expected-error @+1 {{'tessel.einsum' op dimension 'j' has size 3 in one input but 4 in input #1}}
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:4, k:5], f32>)
      -> !tessel.tensor<[i:2, k:5], f32>
  return
}
