// A training step whose @init, which makes its state, is only declared.
func.func private @init() -> !tessel.tensor<[hidden:8], f32>

func.func @train_step(%w: !tessel.tensor<[hidden:8], f32> {tessel.role = "parameter", tessel.name = "w"}, %x: !tessel.tensor<[batch:4, hidden:8], f32>) -> !tessel.tensor<[batch:4, hidden:8], f32> {
  %y = tessel.relu %x : !tessel.tensor<[batch:4, hidden:8], f32>
  return %y : !tessel.tensor<[batch:4, hidden:8], f32>
}
