func.func @halo_exchange_no_mesh(%x: !tessel.tensor<[h:7], f32>) {
  // expected-error @+1 {{'tessel.halo_exchange' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %h = tessel.halo_exchange %x along "h" over "model" halo [1, 1] : !tessel.tensor<[h:7], f32> -> !tessel.tensor<[h:9], f32>
  return
}
