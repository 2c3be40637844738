func.func @softmax_missing_dim(%x: !tessel.tensor<[batch:4, vocab:10], f32>) {
  // expected-error @+1 {{'tessel.softmax' op input has no dimension 'classes'}}
  %p = tessel.softmax %x over "classes" : !tessel.tensor<[batch:4, vocab:10], f32>
  return
}
