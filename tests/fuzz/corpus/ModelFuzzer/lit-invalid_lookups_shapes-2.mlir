!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, d_model:64], i32>
func.func @gather_shared_dim(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op dimension 'd_model' is in both the ids and the table}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, d_model:64], f32>
  return
}
