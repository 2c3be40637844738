// RUN: tessel-opt %s --tessel-bucket-all-reduces=max-bytes=256 | FileCheck %s
// The merged program computes the same values on every rank:
// RUN: tessel-opt %s --tessel-bucket-all-reduces=max-bytes=256 -o %t.mlir
// RUN: tessel-eval --print-limit=64 %s > %t.before
// RUN: tessel-eval --print-limit=64 %t.mlir > %t.after
// RUN: diff %t.before %t.after
// With max-bytes=0 nothing changes:
// RUN: tessel-opt %s --tessel-bucket-all-reduces=max-bytes=0 | FileCheck %s --check-prefix=OFF
// OFF-COUNT-6: tessel.all_reduce
// OFF-NOT: tessel.concat

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:2]>} {
  // CHECK-LABEL: func.func @gradients
  func.func @gradients() -> (!tessel.tensor<[i:4, o:2], f32>, !tessel.tensor<[o:2], f32>,
                             !tessel.tensor<[o:3], f32>, !tessel.tensor<[o:2], f32>,
                             !tessel.tensor<[i:4, o:16], f32>, !tessel.tensor<[o:2], f32>) {
    // Values that differ from rank to rank.
    %iota = tessel.iota "i" : !tessel.tensor<[i:16, o:2], f32>
    %a = tessel.shard_slice %iota along "i" over ["data", "model"]
        : !tessel.tensor<[i:16, o:2], f32> -> !tessel.tensor<[i:4, o:2], f32>
    %wa = tessel.iota "o" : !tessel.tensor<[i:4, o:2], f32>
    %ga_partial = tessel.mul %a, %wa : !tessel.tensor<[i:4, o:2], f32>, !tessel.tensor<[i:4, o:2], f32>
        -> !tessel.tensor<[i:4, o:2], f32>
    %gb_partial = tessel.reduce sum %a : !tessel.tensor<[i:4, o:2], f32> -> !tessel.tensor<[o:2], f32>
    %gc_partial = tessel.iota "o" : !tessel.tensor<[o:3], f32>

    // Three gradients over `data`, all used only at the end: one buffer of
    // 8 + 2 + 3 elements, reduced once, placed after the last input.
    // CHECK: %[[C:.*]] = tessel.iota "o" : !tessel.tensor<[o:3], f32>
    // CHECK-NEXT: %[[FA:.*]] = tessel.reshape %{{.*}} : !tessel.tensor<[i:4, o:2], f32> -> !tessel.tensor<[bucket:8], f32>
    // CHECK-NEXT: %[[FB:.*]] = tessel.reshape %{{.*}} : !tessel.tensor<[o:2], f32> -> !tessel.tensor<[bucket:2], f32>
    // CHECK-NEXT: %[[FC:.*]] = tessel.reshape %[[C]] : !tessel.tensor<[o:3], f32> -> !tessel.tensor<[bucket:3], f32>
    // CHECK-NEXT: %[[BUF:.*]] = tessel.concat %[[FA]], %[[FB]], %[[FC]] over "bucket" : {{.*}} -> !tessel.tensor<[bucket:13], f32>
    // CHECK-NEXT: %[[SUM:.*]] = tessel.all_reduce sum %[[BUF]] over ["data"] : !tessel.tensor<[bucket:13], f32>
    // CHECK-NEXT: %[[SA:.*]] = tessel.slice %[[SUM]] {dims = ["bucket"], starts = array<i64: 0>} : !tessel.tensor<[bucket:13], f32> -> !tessel.tensor<[bucket:8], f32>
    // CHECK-NEXT: %[[GA:.*]] = tessel.reshape %[[SA]] : !tessel.tensor<[bucket:8], f32> -> !tessel.tensor<[i:4, o:2], f32>
    // CHECK-NEXT: %[[SB:.*]] = tessel.slice %[[SUM]] {dims = ["bucket"], starts = array<i64: 8>}
    // CHECK-NEXT: %[[GB:.*]] = tessel.reshape %[[SB]]
    // CHECK-NEXT: %[[SC:.*]] = tessel.slice %[[SUM]] {dims = ["bucket"], starts = array<i64: 10>}
    // CHECK-NEXT: %[[GC:.*]] = tessel.reshape %[[SC]]
    %ga = tessel.all_reduce sum %ga_partial over ["data"] : !tessel.tensor<[i:4, o:2], f32>
    %gb = tessel.all_reduce sum %gb_partial over ["data"] : !tessel.tensor<[o:2], f32>
    %gc = tessel.all_reduce sum %gc_partial over ["data"] : !tessel.tensor<[o:3], f32>

    // Another group (model) or another kind (max): not in that buffer.
    // CHECK: tessel.all_reduce sum %{{.*}} over ["model"] : !tessel.tensor<[o:2], f32>
    // CHECK: tessel.all_reduce max %{{.*}} over ["data"] : !tessel.tensor<[o:2], f32>
    %gm = tessel.all_reduce sum %gb_partial over ["model"] : !tessel.tensor<[o:2], f32>
    %gx = tessel.all_reduce max %gb_partial over ["data"] : !tessel.tensor<[o:2], f32>

    // Larger than max-bytes (256 B): reduced alone.
    // CHECK: tessel.all_reduce sum %{{.*}} over ["data"] : !tessel.tensor<[i:4, o:16], f32>
    %big_partial = tessel.iota "o" : !tessel.tensor<[i:4, o:16], f32>
    %big = tessel.all_reduce sum %big_partial over ["data"] : !tessel.tensor<[i:4, o:16], f32>

    // CHECK: return %[[GA]], %[[GB]], %[[GC]]
    return %ga, %gb, %gc, %gm, %big, %gx
        : !tessel.tensor<[i:4, o:2], f32>, !tessel.tensor<[o:2], f32>, !tessel.tensor<[o:3], f32>,
          !tessel.tensor<[o:2], f32>, !tessel.tensor<[i:4, o:16], f32>, !tessel.tensor<[o:2], f32>
  }

  // An all_reduce whose result is used before the next one's input exists
  // cannot wait for it: two calls, as before.
  // CHECK-LABEL: func.func @dependent
  // CHECK-COUNT-2: tessel.all_reduce sum
  // CHECK-NOT: tessel.concat
  func.func @dependent() -> !tessel.tensor<[o:2], f32> {
    %iota = tessel.iota "o" : !tessel.tensor<[o:4], f32>
    %x = tessel.shard_slice %iota along "o" over ["data"]
        : !tessel.tensor<[o:4], f32> -> !tessel.tensor<[o:2], f32>
    %s = tessel.all_reduce sum %x over ["data"] : !tessel.tensor<[o:2], f32>
    %y = tessel.mul %s, %x : !tessel.tensor<[o:2], f32>, !tessel.tensor<[o:2], f32> -> !tessel.tensor<[o:2], f32>
    %t = tessel.all_reduce sum %y over ["data"] : !tessel.tensor<[o:2], f32>
    return %t : !tessel.tensor<[o:2], f32>
  }
}
