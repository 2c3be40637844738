func.func @concat_other_size(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[seq:2, d:4], f32>) {
  // expected-error @+1 {{'tessel.concat' op dimension 'd' differs in size between inputs (8 and 4)}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:4], f32>) -> !tessel.tensor<[seq:6, d:8], f32>
  return
}
