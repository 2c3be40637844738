func.func @transpose_extra_dim(%x: !tessel.tensor<[a:2, b:3], f32>) {
  // expected-error @+1 {{'tessel.transpose' op result has unexpected dimension 'c'}}
  %t = tessel.transpose %x : !tessel.tensor<[a:2, b:3], f32> -> !tessel.tensor<[b:3, c:1, a:2], f32>
  return
}
