!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], i32>
func.func @gather_element_type(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op expected one element type, got 'f32' and 'bf16'}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, seq:16, d_model:64], bf16>
  return
}
