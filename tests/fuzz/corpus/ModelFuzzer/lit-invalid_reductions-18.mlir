func.func @sce_result_size(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op result dimension 'batch' has size 8, expected 4}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:8], f32>
  return
}
