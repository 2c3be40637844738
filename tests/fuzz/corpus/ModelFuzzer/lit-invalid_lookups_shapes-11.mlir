func.func @one_hot_result_size(%i: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.one_hot' op result dimension 'batch' has size 2, expected 4}}
  %o = tessel.one_hot %i as "classes" : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:2, classes:10], f32>
  return
}
