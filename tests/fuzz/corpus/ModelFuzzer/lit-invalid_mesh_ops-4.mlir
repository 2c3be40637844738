func.func @collective_permute_no_mesh(%x: !tessel.tensor<[k:4], f32>) {
  // expected-error @+1 {{'tessel.collective_permute' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %p = tessel.collective_permute %x over ["model"] pairs [0, 1] : !tessel.tensor<[k:4], f32>
  return
}
