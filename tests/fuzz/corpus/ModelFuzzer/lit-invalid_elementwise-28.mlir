func.func @cast_resizes(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{'tessel.cast' op result must have the input's dimensions}}
  %y = tessel.cast %x : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:2], bf16>
  return
}
