// RUN: tessel-opt %s -split-input-file --tessel-apply-layout="mesh=data:2;model:4 rules=batch:data;hidden:model" | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-apply-layout="mesh=data:2;model:4 rules=batch:data;hidden:model" --tessel-partition | FileCheck %s --check-prefix=PART

// A reshape's result dimension that no rule names takes the split of the
// input dimension it carries over from: heads, the major part of hidden,
// is split over model as hidden is, and the back reshape gives hidden2 the
// split of heads. Both reshapes are then local.
// CHECK-LABEL: func.func @heads_follow_hidden
// CHECK: tessel.reshape {{.*}} -> !tessel.tensor<[batch:8, heads:4, head_dim:4], f32, #tessel.layout<{batch = [data], heads = [model]}>>
// CHECK: tessel.reshape {{.*}} -> !tessel.tensor<[batch:8, hidden2:16], f32, #tessel.layout<{batch = [data], hidden2 = [model]}>>
// PART-LABEL: func.func @heads_follow_hidden
// PART-NOT: all_gather
// PART: tessel.reshape %{{.*}} : !tessel.tensor<[batch:4, hidden:4], f32> -> !tessel.tensor<[batch:4, heads:1, head_dim:4], f32>
// PART: tessel.reshape %{{.*}} : !tessel.tensor<[batch:4, heads:1, head_dim:4], f32> -> !tessel.tensor<[batch:4, hidden2:4], f32>
// PART-NOT: all_gather
func.func @heads_follow_hidden(%x: !tessel.tensor<[batch:8, hidden:16], f32>) -> !tessel.tensor<[batch:8, hidden2:16], f32> {
  %r = tessel.reshape %x : !tessel.tensor<[batch:8, hidden:16], f32> -> !tessel.tensor<[batch:8, heads:4, head_dim:4], f32>
  %m = tessel.reshape %r : !tessel.tensor<[batch:8, heads:4, head_dim:4], f32> -> !tessel.tensor<[batch:8, hidden2:16], f32>
  return %m : !tessel.tensor<[batch:8, hidden2:16], f32>
}

// -----

// No split carries over to a minor part (k), nor to a major part whose
// blocks would not line up (q:2 over 4): both stay replicated, and the
// partitioned reshape gathers hidden.
// CHECK-LABEL: func.func @minor_part_stays_whole
// CHECK: tessel.reshape {{.*}} -> !tessel.tensor<[batch:8, q:2, k:8], f32, #tessel.layout<{batch = [data]}>>
// PART-LABEL: func.func @minor_part_stays_whole
// PART: tessel.all_gather %{{.*}} along "hidden" over ["model"]
func.func @minor_part_stays_whole(%x: !tessel.tensor<[batch:8, hidden:16], f32>) -> !tessel.tensor<[batch:8, q:2, k:8], f32> {
  %r = tessel.reshape %x : !tessel.tensor<[batch:8, hidden:16], f32> -> !tessel.tensor<[batch:8, q:2, k:8], f32>
  return %r : !tessel.tensor<[batch:8, q:2, k:8], f32>
}
