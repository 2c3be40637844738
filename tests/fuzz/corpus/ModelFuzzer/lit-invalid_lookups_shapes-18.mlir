func.func @transpose_missing_dim(%x: !tessel.tensor<[a:2, b:3], f32>) {
  // expected-error @+1 {{'tessel.transpose' op result is missing dimension 'a'}}
  %t = tessel.transpose %x : !tessel.tensor<[a:2, b:3], f32> -> !tessel.tensor<[b:3, c:2], f32>
  return
}
