module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_missing_dim(%x: !tessel.tensor<[h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op input has no dimension 'w'}}
    %h = tessel.halo_exchange %x along "w" over "model" halo [1, 1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:9], f32>
    return
  }
}
