func.func @log_softmax_result_shape(%x: !tessel.tensor<[batch:4, vocab:10], f32>) {
  // expected-error @+1 {{'tessel.log_softmax' op result '!tessel.tensor<[batch:4], f32>' must have the dimensions and element type of the operand '!tessel.tensor<[batch:4, vocab:10], f32>'}}
  %p = tessel.log_softmax %x over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32> -> !tessel.tensor<[batch:4], f32>
  return
}
