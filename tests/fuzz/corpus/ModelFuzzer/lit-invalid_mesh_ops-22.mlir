module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_missing_dim(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.shard_slice' op input has no dimension 'seq'}}
    %s = tessel.shard_slice %x along "seq" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
    return
  }
}
