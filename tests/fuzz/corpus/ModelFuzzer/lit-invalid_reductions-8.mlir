func.func @log_softmax_integer(%x: !tessel.tensor<[batch:4, vocab:10], i64>) {
  // expected-error @+1 {{'tessel.log_softmax' op expected the input to hold floats, got 'i64'}}
  %p = tessel.log_softmax %x over "vocab" : !tessel.tensor<[batch:4, vocab:10], i64>
  return
}
