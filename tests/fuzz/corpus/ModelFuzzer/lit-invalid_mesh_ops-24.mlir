module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_size(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.shard_slice' op result dimension 'hidden' has size 256, expected 64}}
    %s = tessel.shard_slice %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:256], f32>
    return
  }
}
