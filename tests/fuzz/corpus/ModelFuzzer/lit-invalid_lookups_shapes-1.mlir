!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], f32>
func.func @gather_float_ids(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op expected ids to hold integers, got 'f32'}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  return
}
