func.func @reduce_scatter_no_mesh(%x: !tessel.tensor<[hidden:256], f32>) {
  // expected-error @+1 {{'tessel.reduce_scatter' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %r = tessel.reduce_scatter sum %x along "hidden" over ["model"] : !tessel.tensor<[hidden:256], f32> -> !tessel.tensor<[hidden:64], f32>
  return
}
