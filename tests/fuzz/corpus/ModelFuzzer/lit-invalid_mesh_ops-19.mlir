module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @reduce_scatter_size(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.reduce_scatter' op result dimension 'hidden' has size 128, expected 64}}
    %r = tessel.reduce_scatter max %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:128], f32>
    return
  }
}
