// Errors of the verifiers of gather, one_hot, rename, reshape, transpose,
// slice, concat and pad.

!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], i32>
func.func @gather_missing_dim(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op table has no dimension 'tokens'}}
  %e = tessel.gather %t[%i] over "tokens" : !t, !i -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  return
}
