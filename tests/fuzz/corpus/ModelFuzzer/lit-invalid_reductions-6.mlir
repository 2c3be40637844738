func.func @softmax_result_shape(%x: !tessel.tensor<[batch:4, vocab:10], f32>) {
  // expected-error @+1 {{'tessel.softmax' op result '!tessel.tensor<[batch:4, vocab:10], f16>' must have the dimensions and element type of the operand '!tessel.tensor<[batch:4, vocab:10], f32>'}}
  %p = tessel.softmax %x over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32> -> !tessel.tensor<[batch:4, vocab:10], f16>
  return
}
