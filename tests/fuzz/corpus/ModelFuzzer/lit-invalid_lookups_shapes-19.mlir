func.func @transpose_size(%x: !tessel.tensor<[a:2, b:3], f32>) {
  // expected-error @+1 {{'tessel.transpose' op result dimension 'a' has size 3, expected 2}}
  %t = tessel.transpose %x : !tessel.tensor<[a:2, b:3], f32> -> !tessel.tensor<[b:2, a:3], f32>
  return
}
