func.func @reduce_size(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.reduce' op result dimension 'hidden' has size 4 but 8 in the input}}
  %r = tessel.reduce max %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:4], f32>
  return
}
