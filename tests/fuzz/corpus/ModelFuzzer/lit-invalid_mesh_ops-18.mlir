module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @reduce_scatter_indivisible(%x: !tessel.tensor<[hidden:6], f32>) {
    // expected-error @+1 {{'tessel.reduce_scatter' op dimension 'hidden' of size 6 does not divide into 4 blocks}}
    %r = tessel.reduce_scatter sum %x along "hidden" over ["model"] : !tessel.tensor<[hidden:6], f32> -> !tessel.tensor<[hidden:1], f32>
    return
  }
}
