!t = !tessel.tensor<[vocab:256, d_model:64], f32>
!i = !tessel.tensor<[batch:4, seq:16], i32>
func.func @gather_result_keeps_vocab(%t: !t, %i: !i) {
  // expected-error @+1 {{'tessel.gather' op result has unexpected dimension 'vocab'}}
  %e = tessel.gather %t[%i] over "vocab" : !t, !i -> !tessel.tensor<[batch:4, seq:16, vocab:256, d_model:64], f32>
  return
}
