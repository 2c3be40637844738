// RUN: tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/reshard.yaml --tessel-partition | FileCheck %s
// The partitioned functions compute the global functions' values:
// RUN: tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/reshard.yaml --tessel-partition -o %t.mlir
// RUN: for f in coarser finer other_axis move_axis; do \
// RUN:   tessel-eval %s --function $f --random-inputs --seed 3 --output-dir %t.$f > /dev/null && \
// RUN:   tessel-eval %t.mlir --function $f --random-inputs --seed 3 --check-against %t.$f; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-4: result0: matches

// Resharding between a split over [data, model] ("fine") and one over
// [data] (the rule for batch) keeps the blocks of the common leading axis:
// only `model` is gathered, or only sliced, never the whole dimension over
// both axes.

// CHECK-LABEL: func.func @coarser
// CHECK: %[[G:.*]] = tessel.all_gather %{{.*}} along "batch" over ["model"] : !tessel.tensor<[batch:2, n:3], f32> -> !tessel.tensor<[batch:4, n:3], f32>
// CHECK-NOT: shard_slice
// CHECK: tessel.relu %[[G]] : !tessel.tensor<[batch:4, n:3], f32>
func.func @coarser(%x: !tessel.tensor<[batch:8, n:3], f32> {tessel.name = "fine"})
    -> !tessel.tensor<[batch:8, n:3], f32> {
  %y = tessel.relu %x : !tessel.tensor<[batch:8, n:3], f32>
  return %y : !tessel.tensor<[batch:8, n:3], f32>
}

// CHECK-LABEL: func.func @finer
// CHECK-NOT: all_gather
// CHECK: %[[S:.*]] = tessel.shard_slice %{{.*}} along "batch" over ["model"] : !tessel.tensor<[batch:4, n:3], f32> -> !tessel.tensor<[batch:2, n:3], f32>
// CHECK: tessel.relu %[[S]] {{.*}}: !tessel.tensor<[batch:2, n:3], f32>
func.func @finer(%x: !tessel.tensor<[batch:8, n:3], f32>) -> !tessel.tensor<[batch:8, n:3], f32> {
  %y = tessel.relu %x {tessel.name = "fine"} : !tessel.tensor<[batch:8, n:3], f32>
  return %y : !tessel.tensor<[batch:8, n:3], f32>
}

// Different leading axes: the whole dimension is gathered, then sliced.
// CHECK-LABEL: func.func @other_axis
// CHECK: tessel.all_gather %{{.*}} along "batch" over ["data", "model"]
// CHECK: tessel.shard_slice %{{.*}} along "batch" over ["model"]
func.func @other_axis(%x: !tessel.tensor<[batch:8, n:3], f32> {tessel.name = "fine"})
    -> !tessel.tensor<[batch:8, n:3], f32> {
  %y = tessel.relu %x {tessel.name = "by_model"} : !tessel.tensor<[batch:8, n:3], f32>
  return %y : !tessel.tensor<[batch:8, n:3], f32>
}

// A split that moves from one axis to another of the same size, free before
// and after: a collective_permute over both axes sends each rank the one
// block it needs from the rank with the two coordinates swapped.
// CHECK-LABEL: func.func @move_axis
// CHECK-NOT: all_gather
// CHECK: %[[P:.*]] = tessel.collective_permute %{{.*}} over ["data", "model"] pairs [0, 0, 2, 1, 1, 2, 3, 3] : !tessel.tensor<[batch:4, n:3], f32>
// CHECK: tessel.relu %[[P]] {{.*}}: !tessel.tensor<[batch:4, n:3], f32>
func.func @move_axis(%x: !tessel.tensor<[batch:8, n:3], f32>) -> !tessel.tensor<[batch:8, n:3], f32> {
  %y = tessel.relu %x {tessel.name = "by_model"} : !tessel.tensor<[batch:8, n:3], f32>
  return %y : !tessel.tensor<[batch:8, n:3], f32>
}
