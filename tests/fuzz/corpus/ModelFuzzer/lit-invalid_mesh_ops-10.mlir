module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @all_reduce_bad_kind(%x: !tessel.tensor<[hidden:256], f32>) {
    // A mean across ranks is a sum and a scale, never a collective.
    // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, max, min]}}
    %s = tessel.all_reduce mean %x over ["model"] : !tessel.tensor<[hidden:256], f32>
    return
  }
}
