module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_unknown_axis(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op mesh has no axis 'pipe'}}
    %p = tessel.collective_permute %x over ["pipe"] pairs [0, 1] : !tessel.tensor<[k:4], f32>
    return
  }
}
