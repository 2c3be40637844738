// RUN: tessel-opt %s -split-input-file --tessel-apply-layout="mesh=data:2;model:4 rules=batch:data;hidden:model;k:model" --tessel-partition | FileCheck %s

// A contraction over a split dimension leaves partial sums that one
// all_reduce over the dimension's axes completes; arguments become blocks
// and keep their global type.
// CHECK-LABEL: func.func @contract_split
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, k:2], f32> {tessel.global_type = !tessel.tensor<[batch:8, k:8], f32, #tessel.layout<{batch = [data], k = [model]}>>}
// The parameter is initialised as the rank's block, never whole.
// CHECK-NOT: shard_slice
// CHECK: %[[WB:.*]] = tessel.parameter "w" normal scale 1.000000e+00 seed 1 block of !tessel.tensor<[k:8, n:2], f32, #tessel.layout<{k = [model]}>> : !tessel.tensor<[k:2, n:2], f32>
// CHECK-NOT: shard_slice
// CHECK: %[[P:.*]] = tessel.einsum %[[X]], %[[WB]] : {{.*}} -> !tessel.tensor<[batch:4, n:2], f32>
// CHECK: %[[S:.*]] = tessel.all_reduce sum %[[P]] over ["model"] : !tessel.tensor<[batch:4, n:2], f32>
// CHECK: return %[[S]]
func.func @contract_split(%x: !tessel.tensor<[batch:8, k:8], f32>) -> !tessel.tensor<[batch:8, n:2], f32> {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !tessel.tensor<[k:8, n:2], f32>
  %y = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, k:8], f32>, !tessel.tensor<[k:8, n:2], f32>)
      -> !tessel.tensor<[batch:8, n:2], f32>
  return %y : !tessel.tensor<[batch:8, n:2], f32>
}

// -----

// Element-wise ops take their operands in the result's layout: the bias
// takes the split of `hidden`, and each rank initialises its block; no
// communication.
// CHECK-LABEL: func.func @bias
// CHECK: %[[BB:.*]] = tessel.parameter "b" zeros {{.*}} block of !tessel.tensor<[hidden:16], f32, #tessel.layout<{hidden = [model]}>> : !tessel.tensor<[hidden:4], f32>
// CHECK-NOT: shard_slice
// CHECK: tessel.add %{{.*}}, %[[BB]] : !tessel.tensor<[batch:4, hidden:4], f32>, !tessel.tensor<[hidden:4], f32> -> !tessel.tensor<[batch:4, hidden:4], f32>
// CHECK-NOT: all_
func.func @bias(%x: !tessel.tensor<[batch:8, hidden:16], f32>) -> !tessel.tensor<[batch:8, hidden:16], f32> {
  %b = tessel.parameter "b" zeros scale 1.0 seed 0 : !tessel.tensor<[hidden:16], f32>
  %y = tessel.add %x, %b : !tessel.tensor<[batch:8, hidden:16], f32>, !tessel.tensor<[hidden:16], f32>
      -> !tessel.tensor<[batch:8, hidden:16], f32>
  return %y : !tessel.tensor<[batch:8, hidden:16], f32>
}

// -----

// A mean over a split dimension: local sum, all_reduce, scale by the
// global count (1/8).
// CHECK-LABEL: func.func @mean
// CHECK: %[[L:.*]] = tessel.reduce sum %{{.*}} : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[], f32>
// CHECK: %[[T:.*]] = tessel.all_reduce sum %[[L]] over ["data"]
// CHECK: %[[C:.*]] = tessel.constant 1.250000e-01
// CHECK: tessel.mul %[[T]], %[[C]]
func.func @mean(%x: !tessel.tensor<[batch:8], f32>) -> !tessel.tensor<[], f32> {
  %m = tessel.reduce mean %x : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
  return %m : !tessel.tensor<[], f32>
}

// -----

// Softmax over a split dimension stays on blocks: a max and a sum of
// exponentials across the ranks of `model`, no gather.
// CHECK-LABEL: func.func @softmax_split
// CHECK-NOT: all_gather
// CHECK: %[[M:.*]] = tessel.reduce max %{{.*}} : !tessel.tensor<[batch:4, hidden:4], f32> -> !tessel.tensor<[batch:4], f32>
// CHECK: %[[GM:.*]] = tessel.all_reduce max %[[M]] over ["model"]
// CHECK: %[[X:.*]] = tessel.sub %{{.*}}, %[[GM]]
// CHECK: %[[E:.*]] = tessel.exp %[[X]]
// CHECK: %[[S:.*]] = tessel.reduce sum %[[E]]
// CHECK: %[[GS:.*]] = tessel.all_reduce sum %[[S]] over ["model"]
// CHECK: tessel.div %[[E]], %[[GS]] : !tessel.tensor<[batch:4, hidden:4], f32>, !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:4, hidden:4], f32>
func.func @softmax_split(%x: !tessel.tensor<[batch:8, hidden:16], f32>) -> !tessel.tensor<[batch:8, hidden:16], f32> {
  %s = tessel.softmax %x over "hidden" : !tessel.tensor<[batch:8, hidden:16], f32>
  return %s : !tessel.tensor<[batch:8, hidden:16], f32>
}

// -----

// A 3x3 "same" convolution over rows split in 4: each rank receives one
// row from each neighbour (zeros at the image's edges) and convolves its
// block without padding on rows. The 2x2 pooling that follows tiles the
// blocks exactly and needs no halo.
// CHECK-LABEL: func.func @conv_rows
// CHECK: %[[H:.*]] = tessel.halo_exchange %{{.*}} along "hidden" over "model" halo [1, 1] : !tessel.tensor<[batch:4, c:1, hidden:2, w:4], f32> -> !tessel.tensor<[batch:4, c:1, hidden:4, w:4], f32>
// CHECK: %[[C:.*]] = tessel.conv2d %[[H]], %{{.*}} {{{.*}}padding = array<i64: 0, 0, 1, 1>{{.*}}} : {{.*}} -> !tessel.tensor<[batch:4, f:2, hidden:2, w:4], f32>
// CHECK-NOT: halo_exchange
// CHECK: tessel.pool max %[[C]] {{{.*}}} : !tessel.tensor<[batch:4, f:2, hidden:2, w:4], f32> -> !tessel.tensor<[batch:4, f:2, hidden:1, w:2], f32>
func.func @conv_rows(%x: !tessel.tensor<[batch:8, c:1, hidden:8, w:4], f32>)
    -> !tessel.tensor<[batch:8, f:2, hidden:4, w:2], f32> {
  %k = tessel.parameter "k" normal scale 1.0 seed 1 : !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["hidden", "w"],
                             kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>}
      : !tessel.tensor<[batch:8, c:1, hidden:8, w:4], f32>, !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>
      -> !tessel.tensor<[batch:8, f:2, hidden:8, w:4], f32>
  %p = tessel.pool max %y {spatial = ["hidden", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !tessel.tensor<[batch:8, f:2, hidden:8, w:4], f32> -> !tessel.tensor<[batch:8, f:2, hidden:4, w:2], f32>
  return %p : !tessel.tensor<[batch:8, f:2, hidden:4, w:2], f32>
}

// -----

// Cross-entropy over classes split on `model` never gathers the logits:
// a max and a sum of exponentials travel, and each rank picks the label's
// logit from its own classes by comparing labels with their global indices.
// CHECK-LABEL: func.func @split_classes
// CHECK-NOT: all_gather
// CHECK: %[[M:.*]] = tessel.all_reduce max %{{.*}} over ["model"] : !tessel.tensor<[batch:4], f32>
// CHECK: %[[S:.*]] = tessel.all_reduce sum %{{.*}} over ["model"] : !tessel.tensor<[batch:4], f32>
// CHECK: %[[IDS:.*]] = tessel.iota "k" : !tessel.tensor<[k:8], i32>
// CHECK: tessel.shard_slice %[[IDS]] along "k" over ["model"] : !tessel.tensor<[k:8], i32> -> !tessel.tensor<[k:2], i32>
// CHECK: tessel.compare eq
// CHECK: tessel.all_reduce sum %{{.*}} over ["model"] : !tessel.tensor<[batch:4], f32>
func.func @split_classes(%logits: !tessel.tensor<[batch:8, k:8], f32>,
                         %labels: !tessel.tensor<[batch:8], i32>) -> !tessel.tensor<[batch:8], f32> {
  %l = tessel.softmax_cross_entropy %logits, %labels over "k"
      : !tessel.tensor<[batch:8, k:8], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  return %l : !tessel.tensor<[batch:8], f32>
}

// -----

// Layer norm over a split dimension: the mean and the variance are sums
// across the ranks (1/16 = 0.0625 of the global count), never a gather.
// CHECK-LABEL: func.func @split_layer_norm
// CHECK-NOT: all_gather
// CHECK: %[[C:.*]] = tessel.constant 6.250000e-02
// CHECK: %[[S:.*]] = tessel.reduce sum %{{.*}} : !tessel.tensor<[batch:4, hidden:4], f32> -> !tessel.tensor<[batch:4], f32>
// CHECK: %[[T:.*]] = tessel.all_reduce sum %[[S]] over ["model"]
// CHECK: tessel.mul %[[T]], %[[C]]
// CHECK: tessel.all_reduce sum %{{.*}} over ["model"]
// CHECK: tessel.rsqrt
func.func @split_layer_norm(%x: !tessel.tensor<[batch:8, hidden:16], f32>) -> !tessel.tensor<[batch:8, hidden:16], f32> {
  %n = tessel.layer_norm %x over ["hidden"] epsilon 1.0e-05 : !tessel.tensor<[batch:8, hidden:16], f32>
  return %n : !tessel.tensor<[batch:8, hidden:16], f32>
}

// -----

// An embedding table split along its rows (`k` over `model`): each rank
// looks up the ids in its rows, zeroes the others, and an all_reduce sum
// assembles the embeddings; the table is never gathered. The id input
// records the range it indexes.
// CHECK-LABEL: func.func @split_table
// CHECK-SAME: tessel.index_bound = 8 : i64
// CHECK-NOT: all_gather
// CHECK: %[[ROWS:.*]] = tessel.shard_slice %{{.*}} along "k" over ["model"] : !tessel.tensor<[k:8], i32> -> !tessel.tensor<[k:2], i32>
// CHECK: %[[FIRST:.*]] = tessel.reduce min %[[ROWS]]
// CHECK: %[[LOCAL:.*]] = tessel.sub %{{.*}}, %[[FIRST]]
// CHECK: %[[E:.*]] = tessel.gather %{{.*}}[%{{.*}}] over "k" : !tessel.tensor<[k:2, n:3], f32>
// CHECK: %[[KEPT:.*]] = tessel.select %{{.*}}, %[[E]], %{{.*}}
// CHECK: tessel.all_reduce sum %[[KEPT]] over ["model"] : !tessel.tensor<[batch:4, n:3], f32>
func.func @split_table(%ids: !tessel.tensor<[batch:8], i32>) -> !tessel.tensor<[batch:8, n:3], f32> {
  %t = tessel.parameter "table" normal scale 1.0 seed 1 : !tessel.tensor<[k:8, n:3], f32>
  %e = tessel.gather %t[%ids] over "k" : !tessel.tensor<[k:8, n:3], f32>, !tessel.tensor<[batch:8], i32>
      -> !tessel.tensor<[batch:8, n:3], f32>
  return %e : !tessel.tensor<[batch:8, n:3], f32>
}
