func.func @concat_result_size(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[seq:2, d:8], f32>) {
  // expected-error @+1 {{'tessel.concat' op result dimension 'seq' has size 8, expected 6}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:8], f32>) -> !tessel.tensor<[seq:8, d:8], f32>
  return
}
