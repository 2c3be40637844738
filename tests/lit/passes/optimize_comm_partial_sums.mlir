// RUN: tessel-opt %s --tessel-optimize-comm | FileCheck %s
// The rewritten program computes the same blocks on every rank:
// RUN: tessel-opt %s --tessel-optimize-comm -o %t.mlir
// RUN: tessel-eval --print-limit=32 %s > %t.before
// RUN: tessel-eval --print-limit=32 %t.mlir > %t.after
// RUN: diff %t.before %t.after
// RUN: tessel-eval --function=chain_of_sums %s > %t.chain.before
// RUN: tessel-eval --function=chain_of_sums %t.mlir > %t.chain.after
// RUN: diff %t.chain.before %t.chain.after

// Partial sums are added before one all_reduce, and a slice moves above the
// element-wise ops between it and the all_reduce that made the whole value,
// which then becomes a reduce_scatter.
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:2]>} {
  // CHECK-LABEL: func.func @partial_sums
  // The rewriter moves constants to the top.
  // CHECK: %[[RATE:.*]] = tessel.constant
  func.func @partial_sums() -> (!tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:4], f32>,
                                !tessel.tensor<[b:4, n:3], f32>) {
    // Values that differ from rank to rank, so that the sums are sums.
    %i = tessel.iota "n" : !tessel.tensor<[b:4, n:16], f32>
    %i_block = tessel.shard_slice %i along "n" over ["model"]
        : !tessel.tensor<[b:4, n:16], f32> -> !tessel.tensor<[b:4, n:8], f32>
    %j = tessel.iota "b" : !tessel.tensor<[b:4, n:8], f32>
    %x = tessel.add %i_block, %j : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %y = tessel.mul %x, %j : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>

    // Two complete sums added and subtracted: one all_reduce of the sum of
    // the partial sums.
    // CHECK: %[[Y:.*]] = tessel.mul
    // CHECK-NEXT: %[[ADD:.*]] = tessel.add %[[X:.*]], %[[Y]] :
    // CHECK-NEXT: %[[SUB:.*]] = tessel.sub %[[ADD]], %[[X]] :
    // CHECK-NEXT: %[[SUMS:.*]] = tessel.all_reduce sum %[[SUB]] over ["model"]
    %rx = tessel.all_reduce sum %x over ["model"] : !tessel.tensor<[b:4, n:8], f32>
    %ry = tessel.all_reduce sum %y over ["model"] : !tessel.tensor<[b:4, n:8], f32>
    %rx2 = tessel.all_reduce sum %x over ["model"] : !tessel.tensor<[b:4, n:8], f32>
    %both = tessel.add %rx, %ry : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %diff = tessel.sub %both, %rx2 : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:8], f32>
        -> !tessel.tensor<[b:4, n:8], f32>

    // A gradient scaled by a rate, then its block kept (ZeRO's update):
    // reduce_scatter, then the scaling of the block alone.
    // CHECK: %[[RS:.*]] = tessel.reduce_scatter sum %[[Y]] along "n" over ["data"] : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>
    // CHECK-NEXT: %[[SCALED:.*]] = tessel.mul %[[RS]], %[[RATE]] : !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[b:4, n:4], f32>
    %rate = tessel.constant 5.000000e-01 : f32 -> !tessel.tensor<[], f32>
    %grad = tessel.all_reduce sum %y over ["data"] : !tessel.tensor<[b:4, n:8], f32>
    %step = tessel.mul %grad, %rate : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[], f32>
        -> !tessel.tensor<[b:4, n:8], f32>
    %block = tessel.shard_slice %step along "n" over ["data"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:4], f32>

    // A padded block (5 over 2 ranks: blocks of 3, one of them half
    // padding) stays after the op, whose exp would not keep the padding zero.
    // CHECK: %[[E:.*]] = tessel.exp
    // CHECK-NEXT: tessel.shard_slice %[[E]] along "n" over ["data"] : !tessel.tensor<[b:4, n:5], f32> -> !tessel.tensor<[b:4, n:3], f32>
    %k = tessel.iota "n" : !tessel.tensor<[b:4, n:5], f32>
    %rk = tessel.all_reduce sum %k over ["model"] : !tessel.tensor<[b:4, n:5], f32>
    %ek = tessel.exp %rk : !tessel.tensor<[b:4, n:5], f32>
    %padded = tessel.shard_slice %ek along "n" over ["data"]
        : !tessel.tensor<[b:4, n:5], f32> -> !tessel.tensor<[b:4, n:3], f32>
    // CHECK: return %[[SUMS]], %[[SCALED]]
    return %diff, %block, %padded
        : !tessel.tensor<[b:4, n:8], f32>, !tessel.tensor<[b:4, n:4], f32>, !tessel.tensor<[b:4, n:3], f32>
  }

  // A chain of additions with complete sums over "model" between replicated
  // terms (the gradient norm's sums of squares): the replicated terms are
  // added first, then one all_reduce of the added partial sums; the one
  // sum over "data" stays its own.
  // CHECK-LABEL: func.func @chain_of_sums
  // CHECK: %[[D:.*]] = tessel.all_reduce sum %{{.*}} over ["data"]
  // CHECK-NOT: all_reduce
  // CHECK: %[[R:.*]] = tessel.add %[[R1:.*]], %[[R2:.*]] :
  // CHECK-NEXT: %[[P:.*]] = tessel.add %[[P1:.*]], %[[P2:.*]] :
  // CHECK-NEXT: %[[M:.*]] = tessel.all_reduce sum %[[P]] over ["model"]
  // CHECK-NEXT: %[[T:.*]] = tessel.add %[[R]], %[[M]]
  // CHECK-NEXT: %[[U:.*]] = tessel.add %[[T]], %[[D]]
  // CHECK-NEXT: return %[[U]]
  func.func @chain_of_sums() -> !tessel.tensor<[], f32> {
    %i = tessel.iota "n" : !tessel.tensor<[n:8], f32>
    %m = tessel.shard_slice %i along "n" over ["model"]
        : !tessel.tensor<[n:8], f32> -> !tessel.tensor<[n:4], f32>
    %d = tessel.shard_slice %i along "n" over ["data"]
        : !tessel.tensor<[n:8], f32> -> !tessel.tensor<[n:4], f32>
    %p1 = tessel.reduce sum %m : !tessel.tensor<[n:4], f32> -> !tessel.tensor<[], f32>
    %p2 = tessel.mul %p1, %p1 : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
    %p3 = tessel.reduce sum %d : !tessel.tensor<[n:4], f32> -> !tessel.tensor<[], f32>
    %r1 = tessel.reduce sum %i : !tessel.tensor<[n:8], f32> -> !tessel.tensor<[], f32>
    %r2 = tessel.mul %r1, %r1 : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
    %a1 = tessel.all_reduce sum %p1 over ["model"] : !tessel.tensor<[], f32>
    %a2 = tessel.all_reduce sum %p2 over ["model"] : !tessel.tensor<[], f32>
    %a3 = tessel.all_reduce sum %p3 over ["data"] : !tessel.tensor<[], f32>
    %0 = tessel.add %r1, %a1 : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
    %1 = tessel.add %0, %a3 : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
    %2 = tessel.add %1, %r2 : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
    %3 = tessel.add %2, %a2 : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
    return %3 : !tessel.tensor<[], f32>
  }
}
