module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @reduce_scatter_missing_dim(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.reduce_scatter' op input has no dimension 'batch'}}
    %r = tessel.reduce_scatter sum %x along "batch" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
    return
  }
}
