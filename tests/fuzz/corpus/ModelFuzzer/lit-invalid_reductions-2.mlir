func.func @reduce_element_type(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.reduce' op expected one element type, got 'f32' and 'f64'}}
  %r = tessel.reduce mean %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[], f64>
  return
}
