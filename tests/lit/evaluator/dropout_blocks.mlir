// tessel.dropout with `block of` (as tessel-partition makes it) draws the
// mask of the whole tensor's elements that the rank holds.
// RUN: tessel-eval %s | FileCheck %s --check-prefix=BLOCKS

// A dropout with `block of` draws, on every rank, the mask of its block of
// the whole tensor: [rows:5, hidden:7] with rows over `data` and hidden over
// `model` (blocks of 3 x 2, the last ones padded) differs from the
// shard_slices of the whole tensor's dropout by nothing, padding included.
// BLOCKS-DAG: result0.rank0: [] f32 = 0
// BLOCKS-DAG: result0.rank3: [] f32 = 0
// BLOCKS-DAG: result0.rank4: [] f32 = 0
// BLOCKS-DAG: result0.rank7: [] f32 = 0
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @blocks() -> !tessel.tensor<[], f32> {
    %step = tessel.constant 12 : i32 -> !tessel.tensor<[], i32>
    %whole = tessel.parameter "w" normal scale 1.0 seed 7
        : !tessel.tensor<[rows:5, hidden:7], f32>
    %dw = tessel.dropout %whole step %step rate 0.3 seed 4
        : !tessel.tensor<[rows:5, hidden:7], f32>, !tessel.tensor<[], i32>
    %r = tessel.shard_slice %dw along "rows" over ["data"]
        : !tessel.tensor<[rows:5, hidden:7], f32> -> !tessel.tensor<[rows:3, hidden:7], f32>
    %sliced = tessel.shard_slice %r along "hidden" over ["model"]
        : !tessel.tensor<[rows:3, hidden:7], f32> -> !tessel.tensor<[rows:3, hidden:2], f32>
    %block = tessel.parameter "w" normal scale 1.0 seed 7
        block of !tessel.tensor<[rows:5, hidden:7], f32,
                                #tessel.layout<{rows = [data], hidden = [model]}>>
        : !tessel.tensor<[rows:3, hidden:2], f32>
    %db = tessel.dropout %block step %step rate 0.3 seed 4
        block of !tessel.tensor<[rows:5, hidden:7], f32,
                                #tessel.layout<{rows = [data], hidden = [model]}>>
        : !tessel.tensor<[rows:3, hidden:2], f32>, !tessel.tensor<[], i32>
    %d = tessel.sub %db, %sliced : !tessel.tensor<[rows:3, hidden:2], f32>,
        !tessel.tensor<[rows:3, hidden:2], f32> -> !tessel.tensor<[rows:3, hidden:2], f32>
    %a = tessel.abs %d : !tessel.tensor<[rows:3, hidden:2], f32>
    %m = tessel.reduce max %a : !tessel.tensor<[rows:3, hidden:2], f32> -> !tessel.tensor<[], f32>
    return %m : !tessel.tensor<[], f32>
  }
}
