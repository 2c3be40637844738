func.func @f(%x: !tessel.tensor<[batch:8, k:4611686018427387904], f32>) -> !tessel.tensor<[batch:8, n:2], f32> {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !tessel.tensor<[k:4611686018427387904, n:2], f32>
  %y = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, k:4611686018427387904], f32>, !tessel.tensor<[k:4611686018427387904, n:2], f32>) -> !tessel.tensor<[batch:8, n:2], f32>
  return %y : !tessel.tensor<[batch:8, n:2], f32>
}
