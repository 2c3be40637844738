module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_negative_width(%x: !tessel.tensor<[h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op expected two non-negative halo widths [low, high]}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [-1, 1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:7], f32>
    return
  }
}
