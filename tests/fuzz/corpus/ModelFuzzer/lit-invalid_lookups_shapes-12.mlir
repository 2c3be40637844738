func.func @one_hot_result_extra_dim(%i: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.one_hot' op result has unexpected dimension 'extra'}}
  %o = tessel.one_hot %i as "classes" : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4, extra:1, classes:10], f32>
  return
}
