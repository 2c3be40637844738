// RUN: tessel-opt %s --tessel-optimize-comm | FileCheck %s

// A pad_uneven slice (5 rows in blocks of 3, zeros past the end) is no
// reduce_scatter's block: the all_reduce and the slice stay.
// CHECK-LABEL: func.func @uneven_slice_stays
// CHECK: tessel.all_reduce
// CHECK: tessel.shard_slice
// CHECK-NOT: tessel.reduce_scatter
module attributes {tessel.mesh = #tessel.mesh<[model:2]>} {
  func.func @uneven_slice_stays(%x: !tessel.tensor<[r:5, c:4], f32>)
      -> !tessel.tensor<[r:3, c:4], f32> {
    %s = tessel.all_reduce sum %x over ["model"]
        : !tessel.tensor<[r:5, c:4], f32>
    %b = tessel.shard_slice %s along "r" over ["model"]
        : !tessel.tensor<[r:5, c:4], f32> -> !tessel.tensor<[r:3, c:4], f32>
    return %b : !tessel.tensor<[r:3, c:4], f32>
  }
}
