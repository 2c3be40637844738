module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_position_outside(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op position 4 is outside the group of 4}}
    %p = tessel.collective_permute %x over ["model"] pairs [0, 1, 3, 4] : !tessel.tensor<[k:4], f32>
    return
  }
}
