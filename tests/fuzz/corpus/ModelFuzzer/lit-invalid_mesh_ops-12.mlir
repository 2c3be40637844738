module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_reorders(%x: !tessel.tensor<[batch:16, hidden:64], f32>) {
    // expected-error @+1 {{'tessel.all_gather' op result must have the input's dimensions in the same order}}
    %g = tessel.all_gather %x along "hidden" over ["model"]
        : !tessel.tensor<[batch:16, hidden:64], f32> -> !tessel.tensor<[hidden:256, batch:16], f32>
    return
  }
}
