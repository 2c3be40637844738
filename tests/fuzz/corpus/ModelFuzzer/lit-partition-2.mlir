// A mean over a split dimension: local sum, all_reduce, scale by the
// global count (1/8).
func.func @mean(%x: !tessel.tensor<[batch:8], f32>) -> !tessel.tensor<[], f32> {
  %m = tessel.reduce mean %x : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
  return %m : !tessel.tensor<[], f32>
}
