module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_element_type(%x: !tessel.tensor<[h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op expected one element type, got 'f32' and 'f64'}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [1, 1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:9], f64>
    return
  }
}
