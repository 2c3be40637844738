// Identical constants are merged and unused ones are erased.
func.func @constants() -> !tessel.tensor<[], f32> {
  %a = tessel.constant 0.5 : f32 -> !tessel.tensor<[], f32>
  %b = tessel.constant 0.5 : f32 -> !tessel.tensor<[], f32>
  %dead = tessel.constant dense<[1.0, 2.0]> : tensor<2xf32> -> !tessel.tensor<[k:2], f32>
  %s = tessel.add %a, %b : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
  return %s : !tessel.tensor<[], f32>
}
