// RUN: tessel-opt %s --tessel-bucket-all-reduces=max-bytes=512 | FileCheck %s
// The merged program computes the same values on every rank:
// RUN: tessel-opt %s --tessel-bucket-all-reduces=max-bytes=512 -o %t.mlir
// RUN: tessel-eval --print-limit=64 %s > %t.before
// RUN: tessel-eval --print-limit=64 %t.mlir > %t.after
// RUN: diff %t.before %t.after
// With max-bytes=0 nothing changes:
// RUN: tessel-opt %s --tessel-bucket-all-reduces=max-bytes=0 | FileCheck %s --check-prefix=OFF
// OFF-COUNT-3: tessel.reduce_scatter
// OFF-COUNT-3: tessel.all_gather
// OFF-NOT: tessel.concat

// ZeRO's collectives: gradients reduce-scattered into the rank's block and
// parameters gathered from the ranks' blocks, along any of their
// dimensions. Each becomes part of one buffer per kind and group, whose
// rows are the members of the group.
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:2]>} {
  // CHECK-LABEL: func.func @zero_step
  func.func @zero_step() -> (!tessel.tensor<[i:2, o:2], f32>, !tessel.tensor<[i:4, o:1], f32>,
                             !tessel.tensor<[o:3], f32>, !tessel.tensor<[i:4, o:2], f32>,
                             !tessel.tensor<[i:4, o:2], f32>, !tessel.tensor<[o:6], f32>) {
    // Values that differ from rank to rank.
    %iota = tessel.iota "i" : !tessel.tensor<[i:16, o:2], f32>
    %a = tessel.shard_slice %iota along "i" over ["data", "model"]
        : !tessel.tensor<[i:16, o:2], f32> -> !tessel.tensor<[i:4, o:2], f32>
    %wa = tessel.iota "o" : !tessel.tensor<[i:4, o:2], f32>
    %ga = tessel.mul %a, %wa : !tessel.tensor<[i:4, o:2], f32>, !tessel.tensor<[i:4, o:2], f32>
        -> !tessel.tensor<[i:4, o:2], f32>
    %gb = tessel.add %a, %ga : !tessel.tensor<[i:4, o:2], f32>, !tessel.tensor<[i:4, o:2], f32>
        -> !tessel.tensor<[i:4, o:2], f32>
    %ra = tessel.reduce sum %a : !tessel.tensor<[i:4, o:2], f32> -> !tessel.tensor<[o:2], f32>
    %gc = tessel.concat %ra, %ra, %ra over "o" : (!tessel.tensor<[o:2], f32>, !tessel.tensor<[o:2], f32>,
        !tessel.tensor<[o:2], f32>) -> !tessel.tensor<[o:6], f32>

    // Three gradients over `data`, scattered along their first dimension,
    // their second, and their only one: one reduce_scatter of a
    // [bucket_rank:2, bucket:4 + 4 + 3] buffer, each input's blocks laid out
    // as rows (the one split along o transposed first).
    // CHECK: %[[T:.*]] = tessel.transpose %{{.*}} : !tessel.tensor<[i:4, o:2], f32> -> !tessel.tensor<[o:2, i:4], f32>
    // CHECK: tessel.reshape %[[T]] : !tessel.tensor<[o:2, i:4], f32> -> !tessel.tensor<[bucket_rank:2, bucket:4], f32>
    // CHECK: %[[BUF:.*]] = tessel.concat {{.*}} over "bucket" : {{.*}} -> !tessel.tensor<[bucket_rank:2, bucket:11], f32>
    // CHECK-NEXT: %[[ROW:.*]] = tessel.reduce_scatter sum %[[BUF]] along "bucket_rank" over ["data"] : !tessel.tensor<[bucket_rank:2, bucket:11], f32> -> !tessel.tensor<[bucket_rank:1, bucket:11], f32>
    // CHECK-NEXT: %[[SA:.*]] = tessel.slice %[[ROW]] {dims = ["bucket"], starts = array<i64: 0>} : !tessel.tensor<[bucket_rank:1, bucket:11], f32> -> !tessel.tensor<[bucket_rank:1, bucket:4], f32>
    // CHECK-NEXT: %[[RA:.*]] = tessel.reshape %[[SA]] : !tessel.tensor<[bucket_rank:1, bucket:4], f32> -> !tessel.tensor<[i:2, o:2], f32>
    // CHECK-NEXT: %[[SB:.*]] = tessel.slice %[[ROW]] {dims = ["bucket"], starts = array<i64: 4>}
    // CHECK-NEXT: %[[RB:.*]] = tessel.reshape %[[SB]] : {{.*}} -> !tessel.tensor<[o:1, i:4], f32>
    // CHECK-NEXT: %[[RBT:.*]] = tessel.transpose %[[RB]] : !tessel.tensor<[o:1, i:4], f32> -> !tessel.tensor<[i:4, o:1], f32>
    // CHECK-NEXT: %[[SC:.*]] = tessel.slice %[[ROW]] {dims = ["bucket"], starts = array<i64: 8>}
    // CHECK-NEXT: %[[RC:.*]] = tessel.reshape %[[SC]] : {{.*}} -> !tessel.tensor<[o:3], f32>
    %sa = tessel.reduce_scatter sum %ga along "i" over ["data"]
        : !tessel.tensor<[i:4, o:2], f32> -> !tessel.tensor<[i:2, o:2], f32>
    %sb = tessel.reduce_scatter sum %gb along "o" over ["data"]
        : !tessel.tensor<[i:4, o:2], f32> -> !tessel.tensor<[i:4, o:1], f32>
    %sc = tessel.reduce_scatter sum %gc along "o" over ["data"]
        : !tessel.tensor<[o:6], f32> -> !tessel.tensor<[o:3], f32>

    // Three parameter blocks (the rank's blocks of the values above)
    // gathered over `data`: one all_gather of a
    // [bucket_rank:1, bucket:4 + 4 + 3] buffer, each result its columns of
    // the gathered rows.
    // CHECK: %[[GBUF:.*]] = tessel.concat {{.*}} over "bucket" : {{.*}} -> !tessel.tensor<[bucket_rank:1, bucket:11], f32>
    // CHECK-NEXT: %[[ROWS:.*]] = tessel.all_gather %[[GBUF]] along "bucket_rank" over ["data"] : !tessel.tensor<[bucket_rank:1, bucket:11], f32> -> !tessel.tensor<[bucket_rank:2, bucket:11], f32>
    // CHECK-NEXT: %[[PA:.*]] = tessel.slice %[[ROWS]] {dims = ["bucket"], starts = array<i64: 0>} : !tessel.tensor<[bucket_rank:2, bucket:11], f32> -> !tessel.tensor<[bucket_rank:2, bucket:4], f32>
    // CHECK-NEXT: %[[WA:.*]] = tessel.reshape %[[PA]] : !tessel.tensor<[bucket_rank:2, bucket:4], f32> -> !tessel.tensor<[i:4, o:2], f32>
    // CHECK-NEXT: %[[PB:.*]] = tessel.slice %[[ROWS]] {dims = ["bucket"], starts = array<i64: 4>}
    // CHECK-NEXT: %[[WB:.*]] = tessel.reshape %[[PB]] : {{.*}} -> !tessel.tensor<[o:2, i:4], f32>
    // CHECK-NEXT: %[[WBT:.*]] = tessel.transpose %[[WB]] : !tessel.tensor<[o:2, i:4], f32> -> !tessel.tensor<[i:4, o:2], f32>
    // CHECK-NEXT: %[[PC:.*]] = tessel.slice %[[ROWS]] {dims = ["bucket"], starts = array<i64: 8>}
    // CHECK-NEXT: %[[WC:.*]] = tessel.reshape %[[PC]] : {{.*}} -> !tessel.tensor<[o:6], f32>
    %pa = tessel.shard_slice %ga along "i" over ["data"]
        : !tessel.tensor<[i:4, o:2], f32> -> !tessel.tensor<[i:2, o:2], f32>
    %pb = tessel.shard_slice %gb along "o" over ["data"]
        : !tessel.tensor<[i:4, o:2], f32> -> !tessel.tensor<[i:4, o:1], f32>
    %pc = tessel.shard_slice %gc along "o" over ["data"]
        : !tessel.tensor<[o:6], f32> -> !tessel.tensor<[o:3], f32>
    %wa_whole = tessel.all_gather %pa along "i" over ["data"]
        : !tessel.tensor<[i:2, o:2], f32> -> !tessel.tensor<[i:4, o:2], f32>
    %wb_whole = tessel.all_gather %pb along "o" over ["data"]
        : !tessel.tensor<[i:4, o:1], f32> -> !tessel.tensor<[i:4, o:2], f32>
    %wc_whole = tessel.all_gather %pc along "o" over ["data"]
        : !tessel.tensor<[o:3], f32> -> !tessel.tensor<[o:6], f32>
    // CHECK: return %[[RA]], %[[RBT]], %[[RC]], %[[WA]], %[[WBT]], %[[WC]]
    return %sa, %sb, %sc, %wa_whole, %wb_whole, %wc_whole
        : !tessel.tensor<[i:2, o:2], f32>, !tessel.tensor<[i:4, o:1], f32>, !tessel.tensor<[o:3], f32>,
          !tessel.tensor<[i:4, o:2], f32>, !tessel.tensor<[i:4, o:2], f32>, !tessel.tensor<[o:6], f32>
  }
}
