module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_repeated_axis(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.shard_slice' op mesh axis 'data' is listed twice}}
    %s = tessel.shard_slice %x along "hidden" over ["data", "data"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
    return
  }
}
