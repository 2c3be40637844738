func.func @unknown_generic_op(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{unregistered operation 'tessel.frobnicate' found in dialect ('tessel') that does not allow unknown operations}}
  %y = "tessel.frobnicate"(%x) : (!tessel.tensor<[batch:4], f32>) -> !tessel.tensor<[batch:4], f32>
  return
}
