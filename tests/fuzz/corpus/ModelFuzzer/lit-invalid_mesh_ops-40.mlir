module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_reorders(%x: !tessel.tensor<[batch:8, h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op result must have the input's dimensions in the same order}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [1, 1] : !tessel.tensor<[batch:8, h:7], f32> -> !tessel.tensor<[h:9, batch:8], f32>
    return
  }
}
