module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_reduce_no_axes(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.all_reduce' op expected at least one mesh axis}}
    %s = tessel.all_reduce sum %x over [] : !tessel.tensor<[hidden:256], f32>
    return
  }
}
