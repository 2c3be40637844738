!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], i32>
func.func @gather_result_size(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op result dimension 'd_model' has size 32, expected 64}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, seq:16, d_model:32], f32>
  return
}
