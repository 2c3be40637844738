// A model whose first function is a declaration (a function without a
// body), before the function that has one.
func.func private @external(%x: !tessel.tensor<[batch:4, hidden:8], f32>) -> !tessel.tensor<[batch:4, hidden:8], f32>

func.func @forward(%x: !tessel.tensor<[batch:4, hidden:8], f32>) -> !tessel.tensor<[batch:4, hidden:8], f32> {
  %y = tessel.relu %x : !tessel.tensor<[batch:4, hidden:8], f32>
  return %y : !tessel.tensor<[batch:4, hidden:8], f32>
}
