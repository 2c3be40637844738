module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_reduce_shape(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.all_reduce' op result '!tessel.tensor<[hidden:64], f32>' must have the dimensions and element type of the operand '!tessel.tensor<[hidden:256], f32>'}}
    %s = tessel.all_reduce sum %x over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
    return
  }
}
