// ceil((2^63 - 1) / 4) without computing 2^63 - 1 + 3: the largest tensor
// slices into blocks of 2^61.
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @shard_slice_of_the_largest(%x: !tessel.tensor<[n:9223372036854775807], i1>) {
    %s = tessel.shard_slice %x along "n" over ["model"]
        : !tessel.tensor<[n:9223372036854775807], i1> -> !tessel.tensor<[n:2305843009213693952], i1>
    return
  }
}
