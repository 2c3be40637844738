// A parameter with `block of` holds, on every rank, the elements of its
// block of the whole parameter: the same values as slicing the whole one,
// with zeros past the end of a dimension that an uneven split pads.
// RUN: tessel-eval %s | FileCheck %s

// `ones` of [k:3] over `data` (ranks 0-3 are data 0, ranks 4-7 data 1):
// blocks of 2, the second one padded.
// CHECK-DAG: result0.rank0: [k:2] f32 = 1 1
// CHECK-DAG: result0.rank3: [k:2] f32 = 1 1
// CHECK-DAG: result0.rank4: [k:2] f32 = 1 0
// CHECK-DAG: result0.rank7: [k:2] f32 = 1 0
// The normal-initialised [rows:5, hidden:7], rows over `data` and hidden
// over `model` (blocks of 3 x 2, the last ones padded), differs from the
// shard_slices of the whole parameter by nothing, padding included.
// CHECK-DAG: result1.rank0: [] f32 = 0
// CHECK-DAG: result1.rank3: [] f32 = 0
// CHECK-DAG: result1.rank4: [] f32 = 0
// CHECK-DAG: result1.rank7: [] f32 = 0
// The last rank's block (rows 3-5, hidden 6-7) holds one column of values
// over two rows, and zeros: rows 3 and 4, hidden 6.
// CHECK-DAG: result2.rank7: [rows:3, hidden:2] f32 = {{-?[0-9.e-]+}} 0 {{-?[0-9.e-]+}} 0 0 0
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  func.func @main() -> (!tessel.tensor<[k:2], f32>, !tessel.tensor<[], f32>,
                        !tessel.tensor<[rows:3, hidden:2], f32>) {
    %ones = tessel.parameter "b" ones scale 1.0 seed 0
        block of !tessel.tensor<[k:3], f32, #tessel.layout<{k = [data]}>>
        : !tessel.tensor<[k:2], f32>
    %block = tessel.parameter "w" normal scale 1.0 seed 7
        block of !tessel.tensor<[rows:5, hidden:7], f32,
                                #tessel.layout<{rows = [data], hidden = [model]}>>
        : !tessel.tensor<[rows:3, hidden:2], f32>
    %whole = tessel.parameter "w" normal scale 1.0 seed 7
        : !tessel.tensor<[rows:5, hidden:7], f32>
    %r = tessel.shard_slice %whole along "rows" over ["data"]
        : !tessel.tensor<[rows:5, hidden:7], f32> -> !tessel.tensor<[rows:3, hidden:7], f32>
    %sliced = tessel.shard_slice %r along "hidden" over ["model"]
        : !tessel.tensor<[rows:3, hidden:7], f32> -> !tessel.tensor<[rows:3, hidden:2], f32>
    %d = tessel.sub %block, %sliced : !tessel.tensor<[rows:3, hidden:2], f32>,
        !tessel.tensor<[rows:3, hidden:2], f32> -> !tessel.tensor<[rows:3, hidden:2], f32>
    %a = tessel.abs %d : !tessel.tensor<[rows:3, hidden:2], f32>
    %worst = tessel.reduce max %a : !tessel.tensor<[rows:3, hidden:2], f32> -> !tessel.tensor<[], f32>
    return %ones, %worst, %block
        : !tessel.tensor<[k:2], f32>, !tessel.tensor<[], f32>, !tessel.tensor<[rows:3, hidden:2], f32>
  }
}
