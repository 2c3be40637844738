func.func @one_hot_result_missing_ids_dim(%i: !tessel.tensor<[batch:4, seq:8], i32>) {
  // expected-error @+1 {{'tessel.one_hot' op result is missing dimension 'seq'}}
  %o = tessel.one_hot %i as "classes" : !tessel.tensor<[batch:4, seq:8], i32> -> !tessel.tensor<[batch:4, classes:10], f32>
  return
}
