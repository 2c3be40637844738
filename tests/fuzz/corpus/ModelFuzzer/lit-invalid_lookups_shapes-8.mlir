func.func @one_hot_existing_dim(%i: !tessel.tensor<[batch:4], i32>) {
  // expected-error @+1 {{'tessel.one_hot' op ids already have dimension 'batch'}}
  %o = tessel.one_hot %i as "batch" : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4], f32>
  return
}
