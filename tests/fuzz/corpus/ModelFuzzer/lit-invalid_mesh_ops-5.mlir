func.func @shard_slice_no_mesh(%x: !tessel.tensor<[hidden:256], f32>) {
  // expected-error @+1 {{'tessel.shard_slice' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %s = tessel.shard_slice %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
  return
}
