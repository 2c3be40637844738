// Labels that keep the class dimension are one-hot, not indices.
func.func @sce_labels_with_class_dim(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4, vocab:10], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op labels must have exactly the logits' dimensions other than 'vocab'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4, vocab:10], i32>
      -> !tessel.tensor<[batch:4], f32>
  return
}
