// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

// top_k along a split dimension: each rank's top 2 of its block, gathered
// along the new dim (2 candidates per rank instead of the whole block),
// renamed to the searched dim and the top 2 taken again; the batch split
// stays.
// CHECK-LABEL: func.func @values
// CHECK-NOT: all_gather %arg0
// CHECK: %[[L:.*]] = tessel.top_k %arg0 over "e" k 2 as "c" : !tessel.tensor<[b:4, e:4], f32> -> !tessel.tensor<[b:4, c:2], f32>
// CHECK: %[[G:.*]] = tessel.all_gather %[[L]] along "c" over ["model"] : !tessel.tensor<[b:4, c:2], f32> -> !tessel.tensor<[b:4, c:4], f32>
// CHECK: %[[R:.*]] = tessel.rename %[[G]] : !tessel.tensor<[b:4, c:4], f32> -> !tessel.tensor<[b:4, e:4], f32>
// CHECK: %[[T:.*]] = tessel.top_k %[[R]] over "e" k 2 as "c" : !tessel.tensor<[b:4, e:4], f32> -> !tessel.tensor<[b:4, c:2], f32>
// CHECK: return %[[T]]
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:2]>} {
func.func @values(%x: !tessel.tensor<[b:8, e:8], f32, #tessel.layout<{b = [data], e = [model]}>>)
    -> !tessel.tensor<[b:8, c:2], f32, #tessel.layout<{b = [data]}>> {
  %t = tessel.top_k %x over "e" k 2 as "c"
      : !tessel.tensor<[b:8, e:8], f32, #tessel.layout<{b = [data], e = [model]}>>
      -> !tessel.tensor<[b:8, c:2], f32, #tessel.layout<{b = [data]}>>
  return %t : !tessel.tensor<[b:8, c:2], f32, #tessel.layout<{b = [data]}>>
}
}

// -----

// The indices: each block's local indices plus its offset (the least of
// its global indices) travel with the values; the second round's positions
// among the candidates pick them (compare with an iota, select, sum). A
// block of 1 (fewer than k) gives one candidate per rank.
// CHECK-LABEL: func.func @indices
// CHECK: %[[V:.*]] = tessel.top_k %arg0 over "e" k 1 as "c" : !tessel.tensor<[e:1], f32> -> !tessel.tensor<[c:1], f32>
// CHECK: %[[VG:.*]] = tessel.all_gather %[[V]] along "c" over ["model"] : !tessel.tensor<[c:1], f32> -> !tessel.tensor<[c:4], f32>
// CHECK: %[[VR:.*]] = tessel.rename %[[VG]] : !tessel.tensor<[c:4], f32> -> !tessel.tensor<[e:4], f32>
// CHECK: %[[IOTA:.*]] = tessel.iota "e" : !tessel.tensor<[e:4], i32>
// CHECK: %[[MINE:.*]] = tessel.shard_slice %[[IOTA]] along "e" over ["model"] : !tessel.tensor<[e:4], i32> -> !tessel.tensor<[e:1], i32>
// CHECK: %[[OFF:.*]] = tessel.reduce min %[[MINE]] : !tessel.tensor<[e:1], i32> -> !tessel.tensor<[], i32>
// CHECK: %[[LI:.*]] = tessel.top_k %arg0 over "e" k 1 as "c" indices : !tessel.tensor<[e:1], f32> -> !tessel.tensor<[c:1], i32>
// CHECK: %[[GI:.*]] = tessel.add %[[LI]], %[[OFF]]
// CHECK: %[[IG:.*]] = tessel.all_gather %[[GI]] along "c" over ["model"] : !tessel.tensor<[c:1], i32> -> !tessel.tensor<[c:4], i32>
// CHECK: %[[IR:.*]] = tessel.rename %[[IG]] : !tessel.tensor<[c:4], i32> -> !tessel.tensor<[e:4], i32>
// CHECK: %[[P:.*]] = tessel.top_k %[[VR]] over "e" k 2 as "c" indices : !tessel.tensor<[e:4], f32> -> !tessel.tensor<[c:2], i32>
// CHECK: %[[POS:.*]] = tessel.iota "e" : !tessel.tensor<[e:4], i32>
// CHECK: %[[EQ:.*]] = tessel.compare eq, %[[P]], %[[POS]] : !tessel.tensor<[c:2], i32>, !tessel.tensor<[e:4], i32> -> !tessel.tensor<[c:2, e:4], i1>
// CHECK: %[[SEL:.*]] = tessel.select %[[EQ]], %[[IR]], %{{.*}} : {{.*}} -> !tessel.tensor<[c:2, e:4], i32>
// CHECK: %[[SUM:.*]] = tessel.reduce sum %[[SEL]] : !tessel.tensor<[c:2, e:4], i32> -> !tessel.tensor<[c:2], i32>
// CHECK: %[[C:.*]] = tessel.cast %[[SUM]] : !tessel.tensor<[c:2], i32> -> !tessel.tensor<[c:2], i64>
// CHECK: return %[[C]]
module attributes {tessel.mesh = #tessel.mesh<[model:4]>} {
func.func @indices(%x: !tessel.tensor<[e:4], f32, #tessel.layout<{e = [model]}>>)
    -> !tessel.tensor<[c:2], i64> {
  %t = tessel.top_k %x over "e" k 2 as "c" indices
      : !tessel.tensor<[e:4], f32, #tessel.layout<{e = [model]}>> -> !tessel.tensor<[c:2], i64>
  return %t : !tessel.tensor<[c:2], i64>
}
}

// -----

// A padded split of the searched dim is gathered first (the padding's
// zeros would be candidates), and a result split along the new dim is
// sliced after the whole top_k.
// CHECK-LABEL: func.func @padded
// CHECK: %[[G:.*]] = tessel.all_gather %arg0 along "e" over ["model"]
// CHECK: %[[T:.*]] = tessel.top_k {{.*}} over "e" k 2 as "c" : !tessel.tensor<[e:5], f32> -> !tessel.tensor<[c:2], f32>
// CHECK: tessel.shard_slice %[[T]] along "c" over ["other"] : !tessel.tensor<[c:2], f32> -> !tessel.tensor<[c:1], f32>
module attributes {tessel.mesh = #tessel.mesh<[model:4, other:2]>} {
func.func @padded(%x: !tessel.tensor<[e:5], f32, #tessel.layout<{e = [model]}>>)
    -> !tessel.tensor<[c:2], f32, #tessel.layout<{c = [other]}>> {
  %t = tessel.top_k %x over "e" k 2 as "c"
      : !tessel.tensor<[e:5], f32, #tessel.layout<{e = [model]}>>
      -> !tessel.tensor<[c:2], f32, #tessel.layout<{c = [other]}>>
  return %t : !tessel.tensor<[c:2], f32, #tessel.layout<{c = [other]}>>
}
}
