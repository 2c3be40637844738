module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_reduce_unknown_axis(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.all_reduce' op mesh has no axis 'pipeline'}}
    %s = tessel.all_reduce sum %x over ["pipeline"] : !tessel.tensor<[hidden:256], f32>
    return
  }
}
