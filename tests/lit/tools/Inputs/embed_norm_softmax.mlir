// An embedding lookup, layer norm, an unembedding and the softmax and
// log-softmax of the logits (tests/lit/tools/export_shard.test,
// import_shard.test).
func.func @forward(%tokens: !tessel.tensor<[batch:4, seq:8], i32> {tessel.name = "tokens"})
    -> (!tessel.tensor<[batch:4, seq:8, classes:16], f32>, !tessel.tensor<[batch:4, seq:8, classes:16], f32>) {
  %table = tessel.parameter "embedding" normal scale 1.0 seed 1 : !tessel.tensor<[vocab:32, d_model:8], f32>
  %unembed = tessel.parameter "unembed" normal scale 0.5 seed 2 : !tessel.tensor<[d_model:8, classes:16], f32>
  %e = tessel.gather %table[%tokens] over "vocab" : !tessel.tensor<[vocab:32, d_model:8], f32>, !tessel.tensor<[batch:4, seq:8], i32> -> !tessel.tensor<[batch:4, seq:8, d_model:8], f32>
  %n = tessel.layer_norm %e over ["d_model"] epsilon 1.0e-05 : !tessel.tensor<[batch:4, seq:8, d_model:8], f32>
  %logits = tessel.einsum %n, %unembed : (!tessel.tensor<[batch:4, seq:8, d_model:8], f32>, !tessel.tensor<[d_model:8, classes:16], f32>) -> !tessel.tensor<[batch:4, seq:8, classes:16], f32>
  %p = tessel.softmax %logits over "classes" : !tessel.tensor<[batch:4, seq:8, classes:16], f32>
  %lp = tessel.log_softmax %logits over "classes" : !tessel.tensor<[batch:4, seq:8, classes:16], f32>
  return %p, %lp : !tessel.tensor<[batch:4, seq:8, classes:16], f32>, !tessel.tensor<[batch:4, seq:8, classes:16], f32>
}
