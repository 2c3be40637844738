// RUN: tessel-opt %s -split-input-file --pass-pipeline='builtin.module(func.func(tessel-schedule-collectives))' | FileCheck %s

// Two gradients, each all_reduced and then used by its update, as the
// partitioner writes them: the all_reduces start as soon as their gradient
// is computed, the work that does not need them (the second gradient, %h)
// runs first, and the updates come last, in the order their all_reduces
// started.
// CHECK-LABEL: func.func @updates
// CHECK: %[[G1:.*]] = tessel.exp %arg0
// CHECK-NEXT: %[[S1:.*]] = tessel.all_reduce sum %[[G1]]
// CHECK-NEXT: %[[G2:.*]] = tessel.tanh %arg0
// CHECK-NEXT: %[[S2:.*]] = tessel.all_reduce sum %[[G2]]
// CHECK-NEXT: %[[H:.*]] = tessel.exp %[[G2]]
// CHECK-NEXT: %[[U1:.*]] = tessel.add %[[S1]], %arg1
// CHECK-NEXT: %[[U2:.*]] = tessel.add %[[S2]], %arg1
// CHECK-NEXT: return %[[U1]], %[[U2]], %[[H]]
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @updates(%x: !tessel.tensor<[n:4], f32>, %p: !tessel.tensor<[n:4], f32>)
      -> (!tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>) {
    %g1 = tessel.exp %x : !tessel.tensor<[n:4], f32>
    %s1 = tessel.all_reduce sum %g1 over ["data"] : !tessel.tensor<[n:4], f32>
    %u1 = tessel.add %s1, %p : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32> -> !tessel.tensor<[n:4], f32>
    %g2 = tessel.tanh %x : !tessel.tensor<[n:4], f32>
    %s2 = tessel.all_reduce sum %g2 over ["data"] : !tessel.tensor<[n:4], f32>
    %u2 = tessel.add %s2, %p : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32> -> !tessel.tensor<[n:4], f32>
    %h = tessel.exp %g2 : !tessel.tensor<[n:4], f32>
    return %u1, %u2, %h : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>
  }
}

// -----

// A collective of an argument starts first of all, before the ops that
// come before it; ops that use no collective keep their order and go
// before the users of collectives, which go in the order their
// collectives started (%t, of the first, before %both, of the second).
// CHECK-LABEL: func.func @gathers
// CHECK: %[[A:.*]] = tessel.all_gather %arg0
// CHECK-NEXT: %[[E:.*]] = tessel.exp %arg1
// CHECK-NEXT: %[[B:.*]] = tessel.all_gather %[[E]]
// CHECK-NEXT: %[[N:.*]] = tessel.neg %arg1
// CHECK-NEXT: %[[T:.*]] = tessel.tanh %[[A]]
// CHECK-NEXT: %[[BOTH:.*]] = tessel.add %[[B]], %[[T]]
module attributes {tessel.mesh = #tessel.mesh<[model:2]>} {
  func.func @gathers(%w: !tessel.tensor<[k:2], f32>, %x: !tessel.tensor<[k:2], f32>)
      -> (!tessel.tensor<[k:4], f32>, !tessel.tensor<[k:2], f32>) {
    %e = tessel.exp %x : !tessel.tensor<[k:2], f32>
    %b = tessel.all_gather %e along "k" over ["model"] : !tessel.tensor<[k:2], f32> -> !tessel.tensor<[k:4], f32>
    %a = tessel.all_gather %w along "k" over ["model"] : !tessel.tensor<[k:2], f32> -> !tessel.tensor<[k:4], f32>
    %t = tessel.tanh %a : !tessel.tensor<[k:4], f32>
    %both = tessel.add %b, %t : !tessel.tensor<[k:4], f32>, !tessel.tensor<[k:4], f32> -> !tessel.tensor<[k:4], f32>
    %n = tessel.neg %x : !tessel.tensor<[k:2], f32>
    return %both, %n : !tessel.tensor<[k:4], f32>, !tessel.tensor<[k:2], f32>
  }
}

// -----

// A halo exchange is scheduled as a collective: it starts as soon as its
// operand is computed, and the convolution that needs it waits behind the
// work that does not.
// CHECK-LABEL: func.func @halo
// CHECK: %[[E:.*]] = tessel.exp %arg0
// CHECK-NEXT: %[[W:.*]] = tessel.halo_exchange %[[E]]
// CHECK-NEXT: %[[T:.*]] = tessel.tanh %arg1
// CHECK-NEXT: tessel.add %[[W]], %[[T]]
module attributes {tessel.mesh = #tessel.mesh<[rows:2]>} {
  func.func @halo(%x: !tessel.tensor<[h:4, w:3], f32>, %z: !tessel.tensor<[h:6, w:3], f32>)
      -> !tessel.tensor<[h:6, w:3], f32> {
    %e = tessel.exp %x : !tessel.tensor<[h:4, w:3], f32>
    %t0 = tessel.tanh %z : !tessel.tensor<[h:6, w:3], f32>
    %wide = tessel.halo_exchange %e along "h" over "rows" halo [1, 1] : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:6, w:3], f32>
    %y = tessel.add %wide, %t0 : !tessel.tensor<[h:6, w:3], f32>, !tessel.tensor<[h:6, w:3], f32> -> !tessel.tensor<[h:6, w:3], f32>
    return %y : !tessel.tensor<[h:6, w:3], f32>
  }
}

// -----

// A fused op of several results (an optimizer's update merged by
// tessel-merge-fused-outputs) is scheduled as any other op: the gradient's
// all_reduce starts at once, the work that does not need it (%h) runs
// first, and the merged update, which uses it, last. The pass used to leave
// a block with such an op in its order.
// CHECK-LABEL: func.func @merged_update
// CHECK: %[[G:.*]] = tessel.exp %arg0
// CHECK-NEXT: %[[S:.*]] = tessel.all_reduce sum %[[G]]
// CHECK-NEXT: %[[H:.*]] = tessel.tanh %arg0
// CHECK-NEXT: %[[U:.*]]:2 = tessel.fused %[[S]], %arg1
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @merged_update(%x: !tessel.tensor<[n:4], f32>, %p: !tessel.tensor<[n:4], f32>)
      -> (!tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>) {
    %g = tessel.exp %x : !tessel.tensor<[n:4], f32>
    %s = tessel.all_reduce sum %g over ["data"] : !tessel.tensor<[n:4], f32>
    %u:2 = tessel.fused %s, %p : (!tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>) -> (!tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>) {
    ^bb0(%a: !tessel.tensor<[n:4], f32>, %b: !tessel.tensor<[n:4], f32>):
      %m = tessel.mul %a, %b : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32> -> !tessel.tensor<[n:4], f32>
      %q = tessel.add %m, %b : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32> -> !tessel.tensor<[n:4], f32>
      tessel.yield %q, %m : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>
    }
    %h = tessel.tanh %x : !tessel.tensor<[n:4], f32>
    return %u#0, %u#1, %h : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>
  }
}
