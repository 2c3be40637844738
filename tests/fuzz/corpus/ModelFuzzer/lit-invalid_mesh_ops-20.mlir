module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @reduce_scatter_renames(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.reduce_scatter' op result must have the input's dimensions in the same order}}
    %r = tessel.reduce_scatter sum %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[features:64], f32>
    return
  }
}
