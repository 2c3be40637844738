func.func @reduce_bad_kind(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [sum, mean, max, min, prod]}}
  %r = tessel.reduce median %x : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[], f32>
  return
}
