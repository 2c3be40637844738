// Errors of the verifiers of reduce, softmax, log_softmax,
// softmax_cross_entropy and layer_norm.

func.func @reduce_new_dim(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.reduce' op result dimension 'vocab' is not an input dimension}}
  %r = tessel.reduce sum %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[vocab:4], f32>
  return
}
