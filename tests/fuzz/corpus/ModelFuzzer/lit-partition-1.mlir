// Element-wise ops take their operands in the result's layout: the bias,
// replicated as a parameter, is sliced; no communication.
func.func @bias(%x: !tessel.tensor<[batch:8, hidden:16], f32>) -> !tessel.tensor<[batch:8, hidden:16], f32> {
  %b = tessel.parameter "b" zeros scale 1.0 seed 0 : !tessel.tensor<[hidden:16], f32>
  %y = tessel.add %x, %b : !tessel.tensor<[batch:8, hidden:16], f32>, !tessel.tensor<[hidden:16], f32>
      -> !tessel.tensor<[batch:8, hidden:16], f32>
  return %y : !tessel.tensor<[batch:8, hidden:16], f32>
}
