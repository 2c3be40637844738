module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_repeated_target(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op position 2 is the target of two sources}}
    %p = tessel.collective_permute %x over ["model"] pairs [0, 2, 1, 2] : !tessel.tensor<[k:4], f32>
    return
  }
}
