func.func @concat_result_order(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[seq:2, d:8], f32>) {
  // expected-error @+1 {{'tessel.concat' op result must have the inputs' dimensions in the same order}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:8], f32>) -> !tessel.tensor<[d:8, seq:6], f32>
  return
}
