// Softmax over a split dimension stays on blocks: a max and a sum of
// exponentials across the ranks of `model`, no gather.
func.func @softmax_split(%x: !tessel.tensor<[batch:8, hidden:16], f32>) -> !tessel.tensor<[batch:8, hidden:16], f32> {
  %s = tessel.softmax %x over "hidden" : !tessel.tensor<[batch:8, hidden:16], f32>
  return %s : !tessel.tensor<[batch:8, hidden:16], f32>
}
