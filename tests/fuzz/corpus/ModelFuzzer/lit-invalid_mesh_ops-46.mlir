module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_negative_position(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op position -1 is outside the group of 2}}
    %p = tessel.collective_permute %x over ["data"] pairs [-1, 0] : !tessel.tensor<[k:4], f32>
    return
  }
}
