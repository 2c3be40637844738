// RUN: tessel-opt %s -split-input-file --tessel-lower-to-runtime | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-lower-to-runtime=overlap-communication=false | FileCheck %s --check-prefix=BLOCKING

// A collective is started where it is (tessel_rt_start) and waited for
// (tessel_rt_wait, with the start's call site) right before its first
// user, so the ops in between run while its data moves. Its operand is
// freed only after the wait: MPI reads it until then.

// CHECK-DAG: llvm.func @tessel_rt_start(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr)
// CHECK-DAG: llvm.func @tessel_rt_wait(!llvm.ptr, !llvm.ptr)
// CHECK-LABEL: llvm.func @tessel_fn_step
// CHECK: %[[G:.*]] = llvm.call @tessel_rt_alloc
// CHECK: llvm.call @tessel_rt_execute
// CHECK: %[[SUM:.*]] = llvm.call @tessel_rt_alloc
// CHECK: %[[SITE:.*]] = llvm.mlir.addressof @tessel_site_1
// CHECK: llvm.call @tessel_rt_start(%arg0, %[[SITE]], %{{.*}}, %{{.*}}, %{{.*}}, %[[SUM]])
// The gradient's buffer is not freed at the start, nor while the ops in
// between run (the sum moves meanwhile).
// CHECK-NOT: llvm.call @tessel_rt_free(%arg0, %[[G]])
// CHECK: llvm.call @tessel_rt_execute
// CHECK-NOT: llvm.call @tessel_rt_free(%arg0, %[[G]])
// CHECK: llvm.call @tessel_rt_execute
// CHECK-NOT: llvm.call @tessel_rt_free(%arg0, %[[G]])
// CHECK: %[[WAITED:.*]] = llvm.mlir.addressof @tessel_site_1
// CHECK-NEXT: llvm.call @tessel_rt_wait(%arg0, %[[WAITED]])
// After the add, the sum's first (and last) user, both go.
// CHECK: llvm.call @tessel_rt_execute
// CHECK-NEXT: llvm.call @tessel_rt_free(%arg0, %[[G]])
// CHECK-NEXT: llvm.call @tessel_rt_free(%arg0, %[[SUM]])
// CHECK: llvm.return

// BLOCKING-LABEL: llvm.func @tessel_fn_step
// BLOCKING-NOT: llvm.call @tessel_rt_start
// BLOCKING-COUNT-5: llvm.call @tessel_rt_execute
// BLOCKING-NOT: llvm.call @tessel_rt_wait
// BLOCKING: llvm.return
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @step(%g0: !tessel.tensor<[n:8], f32> {tessel.name = "g"},
                  %x: !tessel.tensor<[n:8], f32> {tessel.name = "x"})
      -> (!tessel.tensor<[n:8], f32> {tessel.name = "y"}) {
    %g = tessel.exp %g0 : !tessel.tensor<[n:8], f32>
    %sum = tessel.all_reduce sum %g over ["data"] : !tessel.tensor<[n:8], f32>
    %a = tessel.tanh %x : !tessel.tensor<[n:8], f32>
    %b = tessel.exp %a : !tessel.tensor<[n:8], f32>
    %y = tessel.add %b, %sum : !tessel.tensor<[n:8], f32>, !tessel.tensor<[n:8], f32> -> !tessel.tensor<[n:8], f32>
    return %y : !tessel.tensor<[n:8], f32>
  }
}

// -----

// A collective whose result is only returned is waited for at the return;
// its operand is freed after that wait, and the result is handed out.
// CHECK-LABEL: llvm.func @tessel_fn_gather
// CHECK: %[[E:.*]] = llvm.call @tessel_rt_alloc
// CHECK: llvm.call @tessel_rt_execute
// CHECK: %[[W:.*]] = llvm.call @tessel_rt_alloc
// CHECK: llvm.call @tessel_rt_start
// CHECK-NOT: tessel_rt_free
// CHECK: llvm.call @tessel_rt_wait
// CHECK-NEXT: llvm.call @tessel_rt_free(%arg0, %[[E]])
// CHECK: llvm.store %[[W]]
// CHECK-NEXT: llvm.return
module attributes {tessel.mesh = #tessel.mesh<[model:2]>} {
  func.func @gather(%x: !tessel.tensor<[k:2], f32> {tessel.name = "x"})
      -> (!tessel.tensor<[k:4], f32> {tessel.name = "y"}) {
    %e = tessel.exp %x : !tessel.tensor<[k:2], f32>
    %whole = tessel.all_gather %e along "k" over ["model"] : !tessel.tensor<[k:2], f32> -> !tessel.tensor<[k:4], f32>
    return %whole : !tessel.tensor<[k:4], f32>
  }
}

// -----

// A started collective nobody uses still gets its wait, at the return,
// before its buffers are freed.
// CHECK-LABEL: llvm.func @tessel_fn_unused
// CHECK: llvm.call @tessel_rt_start
// CHECK-NOT: tessel_rt_free
// CHECK: llvm.call @tessel_rt_wait
// CHECK: llvm.call @tessel_rt_free
// CHECK: llvm.return
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @unused(%x: !tessel.tensor<[n:4], f32> {tessel.name = "x"})
      -> (!tessel.tensor<[n:4], f32> {tessel.name = "y"}) {
    %e = tessel.exp %x : !tessel.tensor<[n:4], f32>
    %s = tessel.all_reduce sum %e over ["data"] : !tessel.tensor<[n:4], f32>
    return %e : !tessel.tensor<[n:4], f32>
  }
}

// -----

// A halo exchange is started and waited for like the collectives: the
// convolution's other work (here the exp of another input) runs while the
// halos move, and the exchanged tensor's operand lives until the wait.
// CHECK-LABEL: llvm.func @tessel_fn_halo
// CHECK: %[[E:.*]] = llvm.call @tessel_rt_alloc
// CHECK: llvm.call @tessel_rt_execute
// CHECK: %[[WIDE:.*]] = llvm.call @tessel_rt_alloc
// CHECK: %[[HSITE:.*]] = llvm.mlir.addressof @tessel_site_[[N:[0-9]+]]
// CHECK: llvm.call @tessel_rt_start(%arg0, %[[HSITE]], %{{.*}}, %{{.*}}, %{{.*}}, %[[WIDE]])
// CHECK-NOT: llvm.call @tessel_rt_free(%arg0, %[[E]])
// CHECK: llvm.call @tessel_rt_execute
// CHECK-NOT: llvm.call @tessel_rt_free(%arg0, %[[E]])
// CHECK: %[[HWAITED:.*]] = llvm.mlir.addressof @tessel_site_[[N]]
// CHECK-NEXT: llvm.call @tessel_rt_wait(%arg0, %[[HWAITED]])
// CHECK: llvm.call @tessel_rt_execute
// CHECK-NEXT: llvm.call @tessel_rt_free(%arg0, %[[E]])
// CHECK-NEXT: llvm.call @tessel_rt_free(%arg0, %[[WIDE]])
// CHECK: llvm.return

// BLOCKING-LABEL: llvm.func @tessel_fn_halo
// BLOCKING-NOT: llvm.call @tessel_rt_start
// BLOCKING-COUNT-4: llvm.call @tessel_rt_execute
// BLOCKING-NOT: llvm.call @tessel_rt_wait
// BLOCKING: llvm.return
module attributes {tessel.mesh = #tessel.mesh<[rows:2]>} {
  func.func @halo(%x: !tessel.tensor<[h:4, w:3], f32> {tessel.name = "x"},
                  %z: !tessel.tensor<[h:6, w:3], f32> {tessel.name = "z"})
      -> (!tessel.tensor<[h:6, w:3], f32> {tessel.name = "y"}) {
    %e = tessel.exp %x : !tessel.tensor<[h:4, w:3], f32>
    %wide = tessel.halo_exchange %e along "h" over "rows" halo [1, 1] : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:6, w:3], f32>
    %t = tessel.tanh %z : !tessel.tensor<[h:6, w:3], f32>
    %y = tessel.add %wide, %t : !tessel.tensor<[h:6, w:3], f32>, !tessel.tensor<[h:6, w:3], f32> -> !tessel.tensor<[h:6, w:3], f32>
    return %y : !tessel.tensor<[h:6, w:3], f32>
  }
}
