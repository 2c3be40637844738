module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_indivisible(%x: !tessel.tensor<[hidden:12], f32>) {
    // expected-error @+1 {{'tessel.shard_slice' op dimension 'hidden' of size 12 does not divide into 8 blocks}}
    %s = tessel.shard_slice %x along "hidden" over ["model", "data"] : !tessel.tensor<[hidden:12], f32> -> !tessel.tensor<[hidden:1], f32>
    return
  }
}
