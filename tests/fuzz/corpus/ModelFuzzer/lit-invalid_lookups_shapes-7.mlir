func.func @one_hot_float_ids(%i: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{'tessel.one_hot' op expected ids to hold integers, got 'f32'}}
  %o = tessel.one_hot %i as "classes" : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:4, classes:10], f32>
  return
}
