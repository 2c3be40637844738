func.func @sce_labels_size(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:2], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op dimension 'batch' has size 4 in logits but 2 in labels}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:2], i32>
      -> !tessel.tensor<[batch:4], f32>
  return
}
