// A model that flattens its batch and sequence into one `tokens` dimension
// for a per-token layer: `tokens` holds the batch merged with `seq` (4
// elements of each example), so a new batch size makes it 4 x the batch.
func.func @forward(%x: !tessel.tensor<[batch:8, seq:4, d:16], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %w = tessel.parameter "w" normal scale 0.02 seed 1 : !tessel.tensor<[d:16, hidden:8], f32>
  %t = tessel.reshape %x : !tessel.tensor<[batch:8, seq:4, d:16], f32> -> !tessel.tensor<[tokens:32, d:16], f32>
  %h = tessel.einsum %t, %w : (!tessel.tensor<[tokens:32, d:16], f32>, !tessel.tensor<[d:16, hidden:8], f32>) -> !tessel.tensor<[tokens:32, hidden:8], f32>
  %r = tessel.relu %h : !tessel.tensor<[tokens:32, hidden:8], f32>
  %m = tessel.reduce mean %r : !tessel.tensor<[tokens:32, hidden:8], f32> -> !tessel.tensor<[], f32>
  return %m : !tessel.tensor<[], f32>
}
