// Constants with the same value but different types stay apart.
func.func @constants_of_two_types() -> (!tessel.tensor<[i:2], f32>, !tessel.tensor<[j:2], f32>) {
  %a = tessel.constant 1.0 : f32 -> !tessel.tensor<[i:2], f32>
  %b = tessel.constant 1.0 : f32 -> !tessel.tensor<[j:2], f32>
  return %a, %b : !tessel.tensor<[i:2], f32>, !tessel.tensor<[j:2], f32>
}
