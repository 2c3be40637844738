func.func @concat_element_types(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[seq:2, d:8], f16>) {
  // expected-error @+1 {{'tessel.concat' op expected one element type, got 'f32' and 'f16'}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:8], f16>) -> !tessel.tensor<[seq:6, d:8], f32>
  return
}
