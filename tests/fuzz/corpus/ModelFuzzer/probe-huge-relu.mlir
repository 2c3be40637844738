func.func @f(%x: !tessel.tensor<[batch:4611686018427387904, hidden:4], f32>) -> !tessel.tensor<[batch:4611686018427387904, hidden:4], f32> {
  %y = tessel.relu %x : !tessel.tensor<[batch:4611686018427387904, hidden:4], f32> -> !tessel.tensor<[batch:4611686018427387904, hidden:4], f32>
  return %y : !tessel.tensor<[batch:4611686018427387904, hidden:4], f32>
}
