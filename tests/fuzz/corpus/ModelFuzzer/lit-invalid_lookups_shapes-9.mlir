func.func @one_hot_result_missing_new_dim(%i: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.one_hot' op result has no dimension 'classes'}}
  %o = tessel.one_hot %i as "classes" : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4, labels:10], f32>
  return
}
