func.func @reshape_element_type(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.reshape' op expected one element type, got 'f32' and 'i32'}}
  %r = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[n:32], i32>
  return
}
