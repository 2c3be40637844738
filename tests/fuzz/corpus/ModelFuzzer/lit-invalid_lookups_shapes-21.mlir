func.func @transpose_element_type(%x: !tessel.tensor<[a:2, b:3], f32>) {
  // expected-error @+1 {{'tessel.transpose' op expected one element type, got 'f32' and 'f64'}}
  %t = tessel.transpose %x : !tessel.tensor<[a:2, b:3], f32> -> !tessel.tensor<[b:3, a:2], f64>
  return
}
