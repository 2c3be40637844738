func.func @cast_transposes(%x: !tessel.tensor<[a:2, b:2], f32>) {
  // expected-error @+1 {{'tessel.cast' op result must have the input's dimensions}}
  %y = tessel.cast %x : !tessel.tensor<[a:2, b:2], f32> -> !tessel.tensor<[b:2, a:2], f16>
  return
}
