// A contraction over a split dimension leaves partial sums that one
// all_reduce over the dimension's axes completes; arguments become blocks
// and keep their global type.
func.func @contract_split(%x: !tessel.tensor<[batch:8, k:8], f32>) -> !tessel.tensor<[batch:8, n:2], f32> {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !tessel.tensor<[k:8, n:2], f32>
  %y = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, k:8], f32>, !tessel.tensor<[k:8, n:2], f32>)
      -> !tessel.tensor<[batch:8, n:2], f32>
  return %y : !tessel.tensor<[batch:8, n:2], f32>
}
