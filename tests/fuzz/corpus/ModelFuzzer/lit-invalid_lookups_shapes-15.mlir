func.func @rename_element_type(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.rename' op expected one element type, got 'f32' and 'f16'}}
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, features:8], f16>
  return
}
