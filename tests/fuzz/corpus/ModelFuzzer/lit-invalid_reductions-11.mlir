func.func @sce_integer_logits(%l: !tessel.tensor<[batch:4, vocab:10], i32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op expected logits to hold floats, got 'i32'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], i32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4], i32>
  return
}
