module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_element_type(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.shard_slice' op expected one element type, got 'f32' and 'i32'}}
    %s = tessel.shard_slice %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], i32>
    return
  }
}
