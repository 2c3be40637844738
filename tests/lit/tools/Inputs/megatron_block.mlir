// Megatron's MLP block, x + W2 gelu(x W1) (tests/lit/tools/export_shard.test).
func.func @forward(%x: !tessel.tensor<[batch:8, d_model:16], f32> {tessel.name = "x"}) -> !tessel.tensor<[batch:8, d_model:16], f32> {
  %w1 = tessel.parameter "w1" normal scale 0.02 seed 1 : !tessel.tensor<[d_model:16, d_ff:32], f32>
  %w2 = tessel.parameter "w2" normal scale 0.02 seed 2 : !tessel.tensor<[d_ff:32, d_model:16], f32>
  %h = tessel.einsum %x, %w1 : (!tessel.tensor<[batch:8, d_model:16], f32>, !tessel.tensor<[d_model:16, d_ff:32], f32>) -> !tessel.tensor<[batch:8, d_ff:32], f32>
  %a = tessel.gelu %h : !tessel.tensor<[batch:8, d_ff:32], f32>
  %y = tessel.einsum %a, %w2 : (!tessel.tensor<[batch:8, d_ff:32], f32>, !tessel.tensor<[d_ff:32, d_model:16], f32>) -> !tessel.tensor<[batch:8, d_model:16], f32>
  %z = tessel.add %x, %y : !tessel.tensor<[batch:8, d_model:16], f32>, !tessel.tensor<[batch:8, d_model:16], f32> -> !tessel.tensor<[batch:8, d_model:16], f32>
  return %z : !tessel.tensor<[batch:8, d_model:16], f32>
}
