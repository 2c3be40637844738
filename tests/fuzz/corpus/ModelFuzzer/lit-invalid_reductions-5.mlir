func.func @softmax_integer(%x: !tessel.tensor<[batch:4, vocab:10], i32>) {
  // expected-error @+1 {{'tessel.softmax' op expected the input to hold floats, got 'i32'}}
  %p = tessel.softmax %x over "vocab" : !tessel.tensor<[batch:4, vocab:10], i32>
  return
}
