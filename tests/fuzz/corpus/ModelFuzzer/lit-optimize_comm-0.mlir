// The rewritten program computes the same blocks on every rank:

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:2]>} {
  func.func @patterns() -> (!tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:4, n:8], f32>,
                            !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:4, n:4], f32>) {
    %i = tessel.iota "n" : !tessel.tensor<[b:4, n:8], f32>
    %j = tessel.iota "b" : !tessel.tensor<[b:4, n:8], f32>
    %x = tessel.add %i, %j : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    // Make the blocks differ from rank to rank.
    %p = tessel.shard_slice %x along "n" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>

    // all_reduce + slice over the same axes -> reduce_scatter.
    %r = tessel.all_reduce sum %x over ["data"] : !tessel.tensor<[b:4, n:8], f32>
    %rs = tessel.shard_slice %r along "n" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>

    // A gather sliced back along the same dimension is the own block; the
    // gather stays only for its other use.
    %g = tessel.all_gather %p along "n" over ["model"]
        : !tessel.tensor<[b:4, n:4], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %back = tessel.shard_slice %g along "n" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>

    // A gather along n sliced along b moves the split: all_to_all.
    %g2 = tessel.all_gather %p along "n" over ["model"]
        : !tessel.tensor<[b:4, n:4], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %moved = tessel.shard_slice %g2 along "b" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %moved_whole = tessel.all_gather %moved along "b" over ["data"]
        : !tessel.tensor<[b:2, n:8], f32> -> !tessel.tensor<[b:4, n:8], f32>

    // An all_reduce with another use stays.
    %kept = tessel.all_reduce sum %x over ["model"] : !tessel.tensor<[b:4, n:8], f32>
    %kept_slice = tessel.shard_slice %kept along "b" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %kept_whole = tessel.all_gather %kept_slice along "b" over ["data"]
        : !tessel.tensor<[b:2, n:8], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %sum = tessel.add %kept, %kept_whole : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %sum_block = tessel.shard_slice %sum along "b" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %sum_back = tessel.all_gather %sum_block along "b" over ["data"]
        : !tessel.tensor<[b:2, n:8], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %g_used = tessel.add %g, %sum_back : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %g_block = tessel.shard_slice %g_used along "b" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %g_rows = tessel.all_to_all %g_block split "n" concat "b" over ["data"]
        : !tessel.tensor<[b:2, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
    return %rs, %moved_whole, %g_rows, %back
        : !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:4, n:8], f32>,
          !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:4, n:4], f32>
  }
}
