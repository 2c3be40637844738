func.func @sce_float_labels(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op expected labels to hold integers, got 'f32'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], f32>
      -> !tessel.tensor<[batch:4], f32>
  return
}
