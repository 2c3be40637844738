module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_other_dim_size(%x: !tessel.tensor<[batch:16, hidden:64], f32>) {
    // expected-error @+1 {{'tessel.all_gather' op result dimension 'batch' has size 8, expected 16}}
    %g = tessel.all_gather %x along "hidden" over ["model"]
        : !tessel.tensor<[batch:16, hidden:64], f32> -> !tessel.tensor<[batch:8, hidden:256], f32>
    return
  }
}
