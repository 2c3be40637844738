// RUN: tessel-opt %s --tessel-optimize-comm | FileCheck %s
// The rewritten program computes the same blocks on every rank:
// RUN: tessel-opt %s --tessel-optimize-comm -o %t.mlir
// RUN: tessel-eval %s > %t.before
// RUN: tessel-eval %t.mlir > %t.after
// RUN: diff %t.before %t.after

// A gather along one dimension, renames, and a slice along another: the
// slice moves above the renames (a rename moves no data) and meets the
// gather, which makes one all_to_all, as between a mixture of experts'
// router (tokens split, `route` whole) and its experts (`experts` split).
module attributes {tessel.mesh = #tessel.mesh<[expert:2]>} {
  // CHECK-LABEL: func.func @dispatch
  // CHECK: %[[A:.*]] = tessel.all_to_all %{{.*}} split "route" concat "batch" over ["expert"] : !tessel.tensor<[batch:2, route:4], f32> -> !tessel.tensor<[batch:4, route:2], f32>
  // CHECK: %[[R1:.*]] = tessel.rename %[[A]] : !tessel.tensor<[batch:4, route:2], f32> -> !tessel.tensor<[group:4, route:2], f32>
  // CHECK: tessel.rename %[[R1]] : !tessel.tensor<[group:4, route:2], f32> -> !tessel.tensor<[group:4, experts:2], f32>
  // CHECK-NOT: tessel.all_gather
  // CHECK-NOT: tessel.shard_slice
  func.func @dispatch() -> !tessel.tensor<[group:4, experts:2], f32> {
    %i = tessel.iota "route" : !tessel.tensor<[batch:2, route:4], f32>
    %j = tessel.iota "batch" : !tessel.tensor<[batch:2, route:4], f32>
    %ten = tessel.constant 10.0 : f32 -> !tessel.tensor<[], f32>
    %jj = tessel.mul %j, %ten : !tessel.tensor<[batch:2, route:4], f32>, !tessel.tensor<[], f32>
        -> !tessel.tensor<[batch:2, route:4], f32>
    // Make the blocks differ from rank to rank.
    %whole = tessel.iota "batch" : !tessel.tensor<[batch:4, route:4], f32>
    %mine = tessel.shard_slice %whole along "batch" over ["expert"]
        : !tessel.tensor<[batch:4, route:4], f32> -> !tessel.tensor<[batch:2, route:4], f32>
    %x0 = tessel.add %i, %jj : !tessel.tensor<[batch:2, route:4], f32>, !tessel.tensor<[batch:2, route:4], f32>
        -> !tessel.tensor<[batch:2, route:4], f32>
    %x = tessel.add %x0, %mine : !tessel.tensor<[batch:2, route:4], f32>, !tessel.tensor<[batch:2, route:4], f32>
        -> !tessel.tensor<[batch:2, route:4], f32>
    %g = tessel.all_gather %x along "batch" over ["expert"]
        : !tessel.tensor<[batch:2, route:4], f32> -> !tessel.tensor<[batch:4, route:4], f32>
    %r1 = tessel.rename %g : !tessel.tensor<[batch:4, route:4], f32> -> !tessel.tensor<[group:4, route:4], f32>
    %r2 = tessel.rename %r1 : !tessel.tensor<[group:4, route:4], f32> -> !tessel.tensor<[group:4, experts:4], f32>
    %s = tessel.shard_slice %r2 along "experts" over ["expert"]
        : !tessel.tensor<[group:4, experts:4], f32> -> !tessel.tensor<[group:4, experts:2], f32>
    return %s : !tessel.tensor<[group:4, experts:2], f32>
  }
}
