module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_odd_pairs(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op pairs must list (source, target) positions}}
    %p = tessel.collective_permute %x over ["model"] pairs [0, 1, 2] : !tessel.tensor<[k:4], f32>
    return
  }
}
