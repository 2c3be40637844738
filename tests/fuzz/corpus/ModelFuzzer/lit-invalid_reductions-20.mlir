func.func @sce_result_element_type(%l: !tessel.tensor<[batch:4, vocab:10], f32>, %y: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.softmax_cross_entropy' op expected one element type, got 'f32' and 'i32'}}
  %c = tessel.softmax_cross_entropy %l, %y over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4], i32>
  return
}
