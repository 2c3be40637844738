module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_unknown_axis(%x: !tessel.tensor<[h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op mesh has no axis 'rows'}}
    %h = tessel.halo_exchange %x along "h" over "rows" halo [1, 1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:9], f32>
    return
  }
}
