// An embedding table split along its rows (`k` over `model`): each rank
// looks up the ids in its rows, zeroes the others, and an all_reduce sum
// assembles the embeddings; the table is never gathered. The id input
// records the range it indexes.
func.func @split_table(%ids: !tessel.tensor<[batch:8], i32>) -> !tessel.tensor<[batch:8, n:3], f32> {
  %t = tessel.parameter "table" normal scale 1.0 seed 1 : !tessel.tensor<[k:8, n:3], f32>
  %e = tessel.gather %t[%ids] over "k" : !tessel.tensor<[k:8, n:3], f32>, !tessel.tensor<[batch:8], i32>
      -> !tessel.tensor<[batch:8, n:3], f32>
  return %e : !tessel.tensor<[batch:8, n:3], f32>
}
