module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_too_wide(%x: !tessel.tensor<[h:2], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op halo of dimension 'h' is wider than its local size 2}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [1, 3] : !tessel.tensor<[h:2], f32> -> !tessel.tensor<[h:6], f32>
    return
  }
}
