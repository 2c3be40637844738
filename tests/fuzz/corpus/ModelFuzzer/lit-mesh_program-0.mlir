// A per-rank program runs for every rank of its module's mesh at once, with
// the mesh-level ops simulated across ranks.

// x = [1, 2, 3, 4, 5, 6, 7, 8] split over the 4 ranks of `model`; the ranks
// of `data` hold the same shards. Each rank sums its shard; all_reduce over
// `model` adds the partial sums: 36 everywhere. all_gather rebuilds x.
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @main() -> (!tessel.tensor<[], f32>, !tessel.tensor<[], f32>,
                        !tessel.tensor<[k:8], f32>) {
    %x = tessel.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]>
        : tensor<8xf32> -> !tessel.tensor<[k:8], f32>
    %shard = tessel.shard_slice %x along "k" over ["model"]
        : !tessel.tensor<[k:8], f32> -> !tessel.tensor<[k:2], f32>
    %partial = tessel.reduce sum %shard
        : !tessel.tensor<[k:2], f32> -> !tessel.tensor<[], f32>
    %total = tessel.all_reduce sum %partial over ["model"] : !tessel.tensor<[], f32>
    %whole = tessel.all_gather %shard along "k" over ["model"]
        : !tessel.tensor<[k:2], f32> -> !tessel.tensor<[k:8], f32>
    return %total, %partial, %whole
        : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>, !tessel.tensor<[k:8], f32>
  }
}
