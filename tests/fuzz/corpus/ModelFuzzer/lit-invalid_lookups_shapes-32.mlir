func.func @concat_order(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[d:8, seq:2], f32>) {
  // expected-error @+1 {{'tessel.concat' op inputs must have the same dimensions in the same order}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[d:8, seq:2], f32>) -> !tessel.tensor<[seq:6, d:8], f32>
  return
}
