module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @reduce_scatter_unknown_axis(%x: !tessel.tensor<[hidden:256], f32>) {
    // expected-error @+1 {{'tessel.reduce_scatter' op mesh has no axis 'rows'}}
    %r = tessel.reduce_scatter sum %x along "hidden" over ["rows"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
    return
  }
}
