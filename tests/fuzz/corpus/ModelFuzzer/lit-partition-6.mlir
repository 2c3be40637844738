// Layer norm over a split dimension: the mean and the variance are sums
// across the ranks (1/16 = 0.0625 of the global count), never a gather.
func.func @split_layer_norm(%x: !tessel.tensor<[batch:8, hidden:16], f32>) -> !tessel.tensor<[batch:8, hidden:16], f32> {
  %n = tessel.layer_norm %x over ["hidden"] epsilon 1.0e-05 : !tessel.tensor<[batch:8, hidden:16], f32>
  return %n : !tessel.tensor<[batch:8, hidden:16], f32>
}
