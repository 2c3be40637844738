module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_missing_dim(%x: !tessel.tensor<[hidden:64], f32>) {
    // expected-error @+1 {{'tessel.all_gather' op input has no dimension 'batch'}}
    %g = tessel.all_gather %x along "batch" over ["model"] : !tessel.tensor<[hidden:64], f32> -> !tessel.tensor<[hidden:256], f32>
    return
  }
}
