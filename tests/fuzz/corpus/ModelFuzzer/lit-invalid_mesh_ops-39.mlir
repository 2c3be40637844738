module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @halo_result_size(%x: !tessel.tensor<[batch:8, h:7], f32>) {
    // expected-error @+1 {{'tessel.halo_exchange' op result dimension 'h' has size 8, expected 9}}
    %h = tessel.halo_exchange %x along "h" over "model" halo [1, 1] : !tessel.tensor<[batch:8, h:7], f32> -> !tessel.tensor<[batch:8, h:8], f32>
    return
  }
}
