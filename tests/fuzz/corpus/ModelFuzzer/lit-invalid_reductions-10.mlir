func.func @sce_missing_dim(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op logits has no dimension 'classes'}}
  %c = tessel.softmax_cross_entropy %l, %y over "classes"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4], f32>
  return
}
