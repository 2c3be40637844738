module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @permute_shape(%x: !tessel.tensor<[k:4], f32>) {
    // expected-error @+1 {{'tessel.collective_permute' op result '!tessel.tensor<[k:4], f16>' must have the dimensions and element type of the operand '!tessel.tensor<[k:4], f32>'}}
    %p = tessel.collective_permute %x over ["model"] pairs [0, 1] : !tessel.tensor<[k:4], f32> -> !tessel.tensor<[k:4], f16>
    return
  }
}
