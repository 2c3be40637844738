func.func @concat_missing_dim(%a: !tessel.tensor<[seq:4, d:8], f32>, %b: !tessel.tensor<[key:2, d:8], f32>) {
  // expected-error @+1 {{'tessel.concat' op input has no dimension 'seq'}}
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[key:2, d:8], f32>) -> !tessel.tensor<[seq:6, d:8], f32>
  return
}
