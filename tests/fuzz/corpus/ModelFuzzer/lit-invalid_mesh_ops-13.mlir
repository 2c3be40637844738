module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_size(%x: !tessel.tensor<[batch:16, hidden:64], f32>) {
    // Over both axes the group has 8 members: 64 * 8 = 512.
    // expected-error @+1 {{'tessel.all_gather' op result dimension 'hidden' has size 256, expected 512}}
    %g = tessel.all_gather %x along "hidden" over ["data", "model"]
        : !tessel.tensor<[batch:16, hidden:64], f32> -> !tessel.tensor<[batch:16, hidden:256], f32>
    return
  }
}
