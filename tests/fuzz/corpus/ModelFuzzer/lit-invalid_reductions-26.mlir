func.func @layer_norm_integer(%x: !tessel.tensor<[batch:4, hidden:8], i32>) {
  // expected-error @+1 {{'tessel.layer_norm' op expected the input to hold floats, got 'i32'}}
  %n = tessel.layer_norm %x over ["hidden"] epsilon 1.0e-05 : !tessel.tensor<[batch:4, hidden:8], i32>
  return
}
