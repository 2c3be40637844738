func.func @log_softmax_missing_dim(%x: !tessel.tensor<[batch:4, vocab:10], f32>) {
  // expected-error @+1 {{'tessel.log_softmax' op input has no dimension 'seq'}}
  %p = tessel.log_softmax %x over "seq" : !tessel.tensor<[batch:4, vocab:10], f32>
  return
}
