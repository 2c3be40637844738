// RUN: tessel-opt %s --tessel-optimize-comm | FileCheck %s
// The rewritten program computes the same blocks on every rank:
// RUN: tessel-opt %s --tessel-optimize-comm -o %t.mlir
// RUN: tessel-eval %s > %t.before
// RUN: tessel-eval %t.mlir > %t.after
// RUN: diff %t.before %t.after

// ZeRO's optimizer updates: a gradient all-reduced over the batch axis and
// used only as the rank's block, however many times (Adam's m and v, g * g)
// and through a global norm's sum of squares (gradient clipping).
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:2]>} {
  // Adam: the gradient feeds m (g scaled) and v (g * g scaled); every use is
  // the same block, so the all_reduce is a reduce_scatter and the whole
  // gradient is never made.
  // CHECK-LABEL: func.func @adam_moments
  // CHECK-NOT: tessel.all_reduce
  // CHECK: %[[G:.*]] = tessel.reduce_scatter sum %{{.*}} along "n" over ["data"] : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
  // CHECK-NOT: tessel.all_reduce
  // CHECK-NOT: tessel.shard_slice
  // CHECK: tessel.mul %[[G]], %{{.*}} : !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[], f32>
  // CHECK: tessel.mul %[[G]], %[[G]] : !tessel.tensor<[b:4, n:4], f32>
  // CHECK-NOT: tessel.all_reduce
  // CHECK: return
  func.func @adam_moments() -> (!tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:4, n:4], f32>) {
    %i = tessel.iota "n" : !tessel.tensor<[b:4, n:8], f32>
    %j = tessel.iota "b" : !tessel.tensor<[b:4, n:8], f32>
    %ij = tessel.mul %i, %j : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    // A partial sum that differs from rank to rank.
    %x = tessel.shard_slice %ij along "b" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %xx = tessel.all_gather %x along "b" over ["model"]
        : !tessel.tensor<[b:2, n:8], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %partial = tessel.add %xx, %ij : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %g = tessel.all_reduce sum %partial over ["data"] : !tessel.tensor<[b:4, n:8], f32>
    %c1 = tessel.constant 1.000000e-01 : f32 -> !tessel.tensor<[], f32>
    %c2 = tessel.constant 1.000000e-03 : f32 -> !tessel.tensor<[], f32>
    %gm = tessel.mul %g, %c1 : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %m = tessel.shard_slice %gm along "n" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
    %gg = tessel.mul %g, %g : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %ggv = tessel.mul %gg, %c2 : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %v = tessel.shard_slice %ggv along "n" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
    return %m, %v : !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:4, n:4], f32>
  }

  // Clipping by the global norm: the squared norm of the whole gradient is
  // the sum of the ranks' blocks' (one all_reduce of a scalar), and the
  // clipped gradient (g times a scale, used by both moments) is a block too.
  // CHECK-LABEL: func.func @clipped_adam
  // CHECK: %[[GB:.*]] = tessel.reduce_scatter sum %{{.*}} along "n" over ["data"] : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
  // CHECK: %[[SQ:.*]] = tessel.mul %[[GB]], %[[GB]] : !tessel.tensor<[b:4, n:4], f32>
  // CHECK: %[[LOCAL:.*]] = tessel.reduce sum %[[SQ]] : !tessel.tensor<[b:4, n:4], f32> -> !tessel.tensor<[], f32>
  // CHECK: tessel.all_reduce sum %[[LOCAL]] over ["data"] : !tessel.tensor<[], f32>
  // CHECK-NOT: tessel.all_reduce
  // CHECK-NOT: tessel.shard_slice
  // CHECK: return
  func.func @clipped_adam() -> (!tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:4, n:4], f32>) {
    %i = tessel.iota "n" : !tessel.tensor<[b:4, n:8], f32>
    %j = tessel.iota "b" : !tessel.tensor<[b:4, n:8], f32>
    %ij = tessel.mul %i, %j : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %x = tessel.shard_slice %ij along "b" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %xx = tessel.all_gather %x along "b" over ["model"]
        : !tessel.tensor<[b:2, n:8], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %partial = tessel.add %xx, %ij : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %g = tessel.all_reduce sum %partial over ["data"] : !tessel.tensor<[b:4, n:8], f32>
    %sq = tessel.mul %g, %g : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %norm2 = tessel.reduce sum %sq : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[], f32>
    %limit = tessel.constant 1.000000e+00 : f32 -> !tessel.tensor<[], f32>
    %norm = tessel.sqrt %norm2 : !tessel.tensor<[], f32>
    %bound = tessel.max %norm, %limit : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
        -> !tessel.tensor<[], f32>
    %scale = tessel.div %limit, %bound : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
        -> !tessel.tensor<[], f32>
    %clipped = tessel.mul %g, %scale : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %m = tessel.shard_slice %clipped along "n" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
    %cc = tessel.mul %clipped, %clipped : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %v = tessel.shard_slice %cc along "n" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
    return %m, %v : !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:4, n:4], f32>
  }

  // The sum of the all-reduced value itself (no element-wise op between):
  // summed on the block too.
  // CHECK-LABEL: func.func @sum_of_the_sum
  // CHECK: %[[B:.*]] = tessel.reduce_scatter sum %{{.*}} along "b" over ["data"] : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
  // CHECK: %[[S:.*]] = tessel.reduce sum %[[B]] : !tessel.tensor<[b:2, n:8], f32> -> !tessel.tensor<[n:8], f32>
  // CHECK: tessel.all_reduce sum %[[S]] over ["data"] : !tessel.tensor<[n:8], f32>
  // CHECK-NOT: tessel.shard_slice
  // CHECK: return
  func.func @sum_of_the_sum() -> (!tessel.tensor<[b:2, n:8], f32>, !tessel.tensor<[n:8], f32>) {
    %i = tessel.iota "n" : !tessel.tensor<[b:4, n:8], f32>
    %j = tessel.iota "b" : !tessel.tensor<[b:4, n:8], f32>
    %ij = tessel.mul %i, %j : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %x = tessel.shard_slice %ij along "n" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
    %xx = tessel.all_gather %x along "n" over ["model"]
        : !tessel.tensor<[b:4, n:4], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %partial = tessel.add %xx, %ij : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %g = tessel.all_reduce sum %partial over ["data"] : !tessel.tensor<[b:4, n:8], f32>
    %rows = tessel.shard_slice %g along "b" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %sum = tessel.reduce sum %g : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[n:8], f32>
    return %rows, %sum : !tessel.tensor<[b:2, n:8], f32>, !tessel.tensor<[n:8], f32>
  }

  // Uses that keep different blocks (along n and along b) need the whole
  // sum: the all_reduce stays, and so does the sum of squares of the whole.
  // CHECK-LABEL: func.func @different_blocks_stay
  // CHECK: %[[W:.*]] = tessel.all_reduce sum %{{.*}} over ["data"] : !tessel.tensor<[b:4, n:8], f32>
  // CHECK: tessel.mul %[[W]], %[[W]] : !tessel.tensor<[b:4, n:8], f32>
  // CHECK: tessel.reduce sum %{{.*}} : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[], f32>
  // CHECK-NOT: tessel.reduce_scatter
  // CHECK: return
  func.func @different_blocks_stay() -> (!tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:2, n:8], f32>,
                                         !tessel.tensor<[], f32>) {
    %i = tessel.iota "n" : !tessel.tensor<[b:4, n:8], f32>
    %j = tessel.iota "b" : !tessel.tensor<[b:4, n:8], f32>
    %ij = tessel.mul %i, %j : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %x = tessel.shard_slice %ij along "b" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %xx = tessel.all_gather %x along "b" over ["model"]
        : !tessel.tensor<[b:2, n:8], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %partial = tessel.add %xx, %ij : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %g = tessel.all_reduce sum %partial over ["data"] : !tessel.tensor<[b:4, n:8], f32>
    %cols = tessel.shard_slice %g along "n" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
    %rows = tessel.shard_slice %g along "b" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %sq = tessel.mul %g, %g : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %norm2 = tessel.reduce sum %sq : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[], f32>
    return %cols, %rows, %norm2 : !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:2, n:8], f32>,
                                  !tessel.tensor<[], f32>
  }

  // Mixed precision: the bf16 gradient is widened to f32, whose block the
  // update keeps and whose squares the norm sums. The sum is taken on the
  // blocks, the slices move up through the widening, and the bf16
  // all_reduce becomes a reduce_scatter.
  // CHECK-LABEL: func.func @clipped_bf16
  // CHECK: %[[HB:.*]] = tessel.reduce_scatter sum %{{.*}} along "n" over ["data"] : !tessel.tensor<[b:4, n:8], bf16> -> !tessel.tensor<[b:4, n:4], bf16>
  // CHECK: %[[WB:.*]] = tessel.cast %[[HB]] : !tessel.tensor<[b:4, n:4], bf16> -> !tessel.tensor<[b:4, n:4], f32>
  // CHECK: tessel.mul %[[WB]], %[[WB]] : !tessel.tensor<[b:4, n:4], f32>
  // CHECK: tessel.all_reduce sum %{{.*}} over ["data"] : !tessel.tensor<[], f32>
  // CHECK-NOT: tessel.all_reduce
  // CHECK-NOT: tessel.shard_slice
  // CHECK: return
  func.func @clipped_bf16() -> (!tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[], f32>) {
    %i = tessel.iota "n" : !tessel.tensor<[b:4, n:8], f32>
    %j = tessel.iota "b" : !tessel.tensor<[b:4, n:8], f32>
    %ij = tessel.mul %i, %j : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %x = tessel.shard_slice %ij along "b" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %xx = tessel.all_gather %x along "b" over ["model"]
        : !tessel.tensor<[b:2, n:8], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %partial = tessel.add %xx, %ij : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %half = tessel.cast %partial : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:8], bf16>
    %g = tessel.all_reduce sum %half over ["data"] : !tessel.tensor<[b:4, n:8], bf16>
    %wide = tessel.cast %g : !tessel.tensor<[b:4, n:8], bf16> -> !tessel.tensor<[b:4, n:8], f32>
    %sq = tessel.mul %wide, %wide : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %norm2 = tessel.reduce sum %sq : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[], f32>
    %m = tessel.shard_slice %wide along "n" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
    return %m, %norm2 : !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[], f32>
  }

  // The widened gradient's block is along another dim than the block the
  // bf16 gradient's other use keeps: the whole sum is needed, nothing
  // changes.
  // CHECK-LABEL: func.func @widened_other_block_stays
  // CHECK: tessel.all_reduce sum %{{.*}} over ["data"] : !tessel.tensor<[b:4, n:8], bf16>
  // CHECK: tessel.reduce sum %{{.*}} : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[], f32>
  // CHECK-NOT: tessel.reduce_scatter
  // CHECK: return
  func.func @widened_other_block_stays() -> (!tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:2, n:8], bf16>,
                                             !tessel.tensor<[], f32>) {
    %i = tessel.iota "n" : !tessel.tensor<[b:4, n:8], f32>
    %j = tessel.iota "b" : !tessel.tensor<[b:4, n:8], f32>
    %ij = tessel.mul %i, %j : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %x = tessel.shard_slice %ij along "b" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:2, n:8], f32>
    %xx = tessel.all_gather %x along "b" over ["model"]
        : !tessel.tensor<[b:2, n:8], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %partial = tessel.add %xx, %ij : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %half = tessel.cast %partial : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:8], bf16>
    %g = tessel.all_reduce sum %half over ["data"] : !tessel.tensor<[b:4, n:8], bf16>
    %rows = tessel.shard_slice %g along "b" over ["data"]
        : !tessel.tensor<[b:4, n:8], bf16> -> !tessel.tensor<[b:2, n:8], bf16>
    %wide = tessel.cast %g : !tessel.tensor<[b:4, n:8], bf16> -> !tessel.tensor<[b:4, n:8], f32>
    %sq = tessel.mul %wide, %wide : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %norm2 = tessel.reduce sum %sq : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[], f32>
    %cols = tessel.shard_slice %wide along "n" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
    return %cols, %rows, %norm2 : !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:2, n:8], bf16>,
                                  !tessel.tensor<[], f32>
  }
}
