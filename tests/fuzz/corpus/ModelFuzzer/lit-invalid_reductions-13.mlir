func.func @sce_labels_missing_dim(%l: !tessel.tensor<[batch:4, seq:8, vocab:10], f32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op labels are missing dimension 'seq'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, seq:8, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4, seq:8], f32>
  return
}
