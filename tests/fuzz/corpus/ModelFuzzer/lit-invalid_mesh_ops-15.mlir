module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_gather_element_type(%x: !tessel.tensor<[hidden:64], f32>) {
    // expected-error @+1 {{'tessel.all_gather' op expected one element type, got 'f32' and 'bf16'}}
    %g = tessel.all_gather %x along "hidden" over ["model"] : !tessel.tensor<[hidden:64], f32> -> !tessel.tensor<[hidden:256], bf16>
    return
  }
}
