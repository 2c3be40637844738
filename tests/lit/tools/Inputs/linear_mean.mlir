// A linear layer with a bias and a ReLU, reduced to its mean: the shape of
// a data-parallel loss.
func.func @forward(%x: !tessel.tensor<[batch:8, pixels:16], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %w = tessel.parameter "w" normal scale 0.02 seed 1 : !tessel.tensor<[pixels:16, hidden:8], f32>
  %b = tessel.parameter "b" zeros scale 0.0 seed 2 : !tessel.tensor<[hidden:8], f32>
  %h = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, pixels:16], f32>, !tessel.tensor<[pixels:16, hidden:8], f32>) -> !tessel.tensor<[batch:8, hidden:8], f32>
  %hb = tessel.add %h, %b : !tessel.tensor<[batch:8, hidden:8], f32>, !tessel.tensor<[hidden:8], f32> -> !tessel.tensor<[batch:8, hidden:8], f32>
  %r = tessel.relu %hb : !tessel.tensor<[batch:8, hidden:8], f32>
  %m = tessel.reduce mean %r : !tessel.tensor<[batch:8, hidden:8], f32> -> !tessel.tensor<[], f32>
  return %m : !tessel.tensor<[], f32>
}
