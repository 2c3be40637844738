module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_reduce_repeated_axis(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.all_reduce' op mesh axis 'model' is listed twice}}
    %s = tessel.all_reduce sum %x over ["model", "data", "model"] : !tessel.tensor<[hidden:256], f32>
    return
  }
}
