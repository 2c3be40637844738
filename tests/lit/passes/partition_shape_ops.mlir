// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

// Reshapes, slices, pads and concatenations keep the splits of the
// dimensions whose elements they do not move; a dimension they slice, pad
// or concatenate along, or regroup where blocks do not line up, is gathered
// alone and the result sliced to its layout.

// A slice along seq leaves the batch split: a local slice of the block.
// CHECK-LABEL: func.func @slice_unsplit_dim
// CHECK-NOT: all_gather
// CHECK: tessel.slice %{{.*}} {dims = ["seq"], starts = array<i64: 4>} : !tessel.tensor<[batch:4, seq:16], f32> -> !tessel.tensor<[batch:4, seq:8], f32>
// CHECK-NOT: all_gather
// CHECK: return
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @slice_unsplit_dim(%x: !tessel.tensor<[batch:8, seq:16], f32, #tessel.layout<{batch = [data]}>>)
    -> !tessel.tensor<[batch:8, seq:8], f32, #tessel.layout<{batch = [data]}>> {
  %s = tessel.slice %x {dims = ["seq"], starts = array<i64: 4>}
      : !tessel.tensor<[batch:8, seq:16], f32, #tessel.layout<{batch = [data]}>>
      -> !tessel.tensor<[batch:8, seq:8], f32, #tessel.layout<{batch = [data]}>>
  return %s : !tessel.tensor<[batch:8, seq:8], f32, #tessel.layout<{batch = [data]}>>
}
}

// -----

// A slice along a split dimension gathers that dimension only (the batch
// stays split), slices, and keeps the rank's block of the result.
// CHECK-LABEL: func.func @slice_split_dim
// CHECK: %[[G:.*]] = tessel.all_gather %{{.*}} along "hidden" over ["model"] : !tessel.tensor<[batch:4, hidden:4], f32> -> !tessel.tensor<[batch:4, hidden:16], f32>
// CHECK: %[[S:.*]] = tessel.slice %[[G]] {dims = ["hidden"], starts = array<i64: 4>} : !tessel.tensor<[batch:4, hidden:16], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
// CHECK: %[[B:.*]] = tessel.shard_slice %[[S]] along "hidden" over ["model"] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:2], f32>
// CHECK: return %[[B]]
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @slice_split_dim(%x: !tessel.tensor<[batch:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>)
    -> !tessel.tensor<[batch:8, hidden:8], f32, #tessel.layout<{batch = [data], hidden = [model]}>> {
  %s = tessel.slice %x {dims = ["hidden"], starts = array<i64: 4>}
      : !tessel.tensor<[batch:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
      -> !tessel.tensor<[batch:8, hidden:8], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
  return %s : !tessel.tensor<[batch:8, hidden:8], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
}
}

// -----

// A pad along seq runs on the blocks of the split batch and hidden; hidden,
// listed with no padding, is not moved either.
// CHECK-LABEL: func.func @pad_unsplit_dim
// CHECK-NOT: all_gather
// CHECK: tessel.pad %{{.*}} {dims = ["seq", "hidden"], high = array<i64: 3, 0>, low = array<i64: 1, 0>} : !tessel.tensor<[batch:4, seq:4, hidden:4], f32> -> !tessel.tensor<[batch:4, seq:8, hidden:4], f32>
// CHECK-NOT: all_gather
// CHECK: return
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @pad_unsplit_dim(%x: !tessel.tensor<[batch:8, seq:4, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>)
    -> !tessel.tensor<[batch:8, seq:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>> {
  %p = tessel.pad %x {dims = ["seq", "hidden"], low = array<i64: 1, 0>, high = array<i64: 3, 0>}
      : !tessel.tensor<[batch:8, seq:4, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
      -> !tessel.tensor<[batch:8, seq:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
  return %p : !tessel.tensor<[batch:8, seq:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
}
}

// -----

// A pad along a split dimension gathers it alone.
// CHECK-LABEL: func.func @pad_split_dim
// CHECK: %[[G:.*]] = tessel.all_gather %{{.*}} along "seq" over ["model"] : !tessel.tensor<[batch:4, seq:1], f32> -> !tessel.tensor<[batch:4, seq:4], f32>
// CHECK-NOT: all_gather
// CHECK: %[[P:.*]] = tessel.pad %[[G]] {{.*}} : !tessel.tensor<[batch:4, seq:4], f32> -> !tessel.tensor<[batch:4, seq:8], f32>
// CHECK: %[[B:.*]] = tessel.shard_slice %[[P]] along "seq" over ["model"] : !tessel.tensor<[batch:4, seq:8], f32> -> !tessel.tensor<[batch:4, seq:2], f32>
// CHECK: return %[[B]]
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @pad_split_dim(%x: !tessel.tensor<[batch:8, seq:4], f32, #tessel.layout<{batch = [data], seq = [model]}>>)
    -> !tessel.tensor<[batch:8, seq:8], f32, #tessel.layout<{batch = [data], seq = [model]}>> {
  %p = tessel.pad %x {dims = ["seq"], low = array<i64: 1>, high = array<i64: 3>, value = 2.0}
      : !tessel.tensor<[batch:8, seq:4], f32, #tessel.layout<{batch = [data], seq = [model]}>>
      -> !tessel.tensor<[batch:8, seq:8], f32, #tessel.layout<{batch = [data], seq = [model]}>>
  return %p : !tessel.tensor<[batch:8, seq:8], f32, #tessel.layout<{batch = [data], seq = [model]}>>
}
}

// -----

// hidden:10 over 3 pads its last block (pad_uneven). A pad with zeros along
// seq keeps that padding zero; a pad with another value writes it into the
// padding too, so a mask (global index < 10) sets it back to zero.
// CHECK-LABEL: func.func @pad_beside_padded_split
// CHECK: %[[Z:.*]] = tessel.pad %{{.*}} {{.*}} : !tessel.tensor<[seq:2, hidden:4], f32> -> !tessel.tensor<[seq:4, hidden:4], f32>
// CHECK-NOT: tessel.select
// CHECK: %[[O:.*]] = tessel.pad %{{.*}} {{.*}}value = 1.000000e+00 : f64} : !tessel.tensor<[seq:2, hidden:4], f32> -> !tessel.tensor<[seq:4, hidden:4], f32>
// CHECK: %[[IOTA:.*]] = tessel.iota "hidden" : !tessel.tensor<[hidden:12], i64>
// CHECK: %[[MINE:.*]] = tessel.shard_slice %[[IOTA]] along "hidden" over ["model"]
// CHECK: %[[N:.*]] = tessel.constant 10 : i64
// CHECK: %[[REAL:.*]] = tessel.compare lt, %[[MINE]], %[[N]]
// CHECK: %[[M:.*]] = tessel.select %[[REAL]], %[[O]], %{{.*}}
// CHECK: return %[[Z]], %[[M]]
module attributes {tessel.mesh = #tessel.mesh<[model:3]>} {
func.func @pad_beside_padded_split(%x: !tessel.tensor<[seq:2, hidden:10], f32, #tessel.layout<{hidden = [model]}>>)
    -> (!tessel.tensor<[seq:4, hidden:10], f32, #tessel.layout<{hidden = [model]}>>,
        !tessel.tensor<[seq:4, hidden:10], f32, #tessel.layout<{hidden = [model]}>>) {
  %z = tessel.pad %x {dims = ["seq"], low = array<i64: 1>, high = array<i64: 1>}
      : !tessel.tensor<[seq:2, hidden:10], f32, #tessel.layout<{hidden = [model]}>>
      -> !tessel.tensor<[seq:4, hidden:10], f32, #tessel.layout<{hidden = [model]}>>
  %o = tessel.pad %x {dims = ["seq"], low = array<i64: 1>, high = array<i64: 1>, value = 1.0}
      : !tessel.tensor<[seq:2, hidden:10], f32, #tessel.layout<{hidden = [model]}>>
      -> !tessel.tensor<[seq:4, hidden:10], f32, #tessel.layout<{hidden = [model]}>>
  return %z, %o : !tessel.tensor<[seq:4, hidden:10], f32, #tessel.layout<{hidden = [model]}>>,
                  !tessel.tensor<[seq:4, hidden:10], f32, #tessel.layout<{hidden = [model]}>>
}
}

// -----

// A concatenation along seq: the operands are resharded to agree on the
// other dimensions (the replicated %b takes its block of the batch, no
// communication) and concatenated locally.
// CHECK-LABEL: func.func @concat_unsplit_dim
// CHECK-SAME: (%[[A:.*]]: !tessel.tensor<[batch:4, seq:4, hidden:4], f32> {{.*}}, %[[B:.*]]: !tessel.tensor<[batch:8, seq:2, hidden:4], f32>
// CHECK-NOT: all_gather
// CHECK: %[[BB:.*]] = tessel.shard_slice %[[B]] along "batch" over ["data"] : !tessel.tensor<[batch:8, seq:2, hidden:4], f32> -> !tessel.tensor<[batch:4, seq:2, hidden:4], f32>
// CHECK: %[[C:.*]] = tessel.concat %[[A]], %[[BB]] over "seq" : (!tessel.tensor<[batch:4, seq:4, hidden:4], f32>, !tessel.tensor<[batch:4, seq:2, hidden:4], f32>) -> !tessel.tensor<[batch:4, seq:6, hidden:4], f32>
// CHECK: return %[[C]]
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @concat_unsplit_dim(
    %a: !tessel.tensor<[batch:8, seq:4, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>,
    %b: !tessel.tensor<[batch:8, seq:2, hidden:16], f32, #tessel.layout<{hidden = [model]}>>)
    -> !tessel.tensor<[batch:8, seq:6, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>> {
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[batch:8, seq:4, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>,
         !tessel.tensor<[batch:8, seq:2, hidden:16], f32, #tessel.layout<{hidden = [model]}>>)
      -> !tessel.tensor<[batch:8, seq:6, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
  return %c : !tessel.tensor<[batch:8, seq:6, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
}
}

// -----

// A concatenation along a split dimension gathers that dimension of each
// operand; the batch stays split.
// CHECK-LABEL: func.func @concat_split_dim
// CHECK: %[[GA:.*]] = tessel.all_gather %{{.*}} along "seq" over ["model"] : !tessel.tensor<[batch:4, seq:1], f32> -> !tessel.tensor<[batch:4, seq:4], f32>
// CHECK: %[[GB:.*]] = tessel.all_gather %{{.*}} along "seq" over ["model"] : !tessel.tensor<[batch:4, seq:2], f32> -> !tessel.tensor<[batch:4, seq:8], f32>
// CHECK-NOT: all_gather
// CHECK: %[[C:.*]] = tessel.concat %[[GA]], %[[GB]] over "seq" : (!tessel.tensor<[batch:4, seq:4], f32>, !tessel.tensor<[batch:4, seq:8], f32>) -> !tessel.tensor<[batch:4, seq:12], f32>
// CHECK: tessel.shard_slice %[[C]] along "seq" over ["model"] : !tessel.tensor<[batch:4, seq:12], f32> -> !tessel.tensor<[batch:4, seq:3], f32>
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @concat_split_dim(
    %a: !tessel.tensor<[batch:8, seq:4], f32, #tessel.layout<{batch = [data], seq = [model]}>>,
    %b: !tessel.tensor<[batch:8, seq:8], f32, #tessel.layout<{batch = [data], seq = [model]}>>)
    -> !tessel.tensor<[batch:8, seq:12], f32, #tessel.layout<{batch = [data], seq = [model]}>> {
  %c = tessel.concat %a, %b over "seq"
      : (!tessel.tensor<[batch:8, seq:4], f32, #tessel.layout<{batch = [data], seq = [model]}>>,
         !tessel.tensor<[batch:8, seq:8], f32, #tessel.layout<{batch = [data], seq = [model]}>>)
      -> !tessel.tensor<[batch:8, seq:12], f32, #tessel.layout<{batch = [data], seq = [model]}>>
  return %c : !tessel.tensor<[batch:8, seq:12], f32, #tessel.layout<{batch = [data], seq = [model]}>>
}
}

// -----

// hidden:16 over model splits into heads (its major part) and head_dim:
// hidden's blocks of 4 are heads' blocks of 1; the batch is carried over.
// The reshape back merges heads into hidden2 as its major part. Both are
// local.
// CHECK-LABEL: func.func @reshape_major_parts
// CHECK-NOT: all_gather
// CHECK: %[[R:.*]] = tessel.reshape %{{.*}} : !tessel.tensor<[batch:4, hidden:4], f32> -> !tessel.tensor<[batch:4, heads:1, head_dim:4], f32>
// CHECK: %[[M:.*]] = tessel.reshape %[[R]] : !tessel.tensor<[batch:4, heads:1, head_dim:4], f32> -> !tessel.tensor<[batch:4, hidden2:4], f32>
// CHECK-NOT: all_gather
// CHECK: return %[[M]]
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @reshape_major_parts(%x: !tessel.tensor<[batch:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>)
    -> !tessel.tensor<[batch:8, hidden2:16], f32, #tessel.layout<{batch = [data], hidden2 = [model]}>> {
  %r = tessel.reshape %x : !tessel.tensor<[batch:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
      -> !tessel.tensor<[batch:8, heads:4, head_dim:4], f32, #tessel.layout<{batch = [data], heads = [model]}>>
  %m = tessel.reshape %r : !tessel.tensor<[batch:8, heads:4, head_dim:4], f32, #tessel.layout<{batch = [data], heads = [model]}>>
      -> !tessel.tensor<[batch:8, hidden2:16], f32, #tessel.layout<{batch = [data], hidden2 = [model]}>>
  return %m : !tessel.tensor<[batch:8, hidden2:16], f32, #tessel.layout<{batch = [data], hidden2 = [model]}>>
}
}

// -----

// A split of the minor part (k) does not line up with hidden's blocks:
// hidden alone is gathered (the batch stays split), reshaped, and sliced
// along k.
// CHECK-LABEL: func.func @reshape_minor_part
// CHECK: %[[G:.*]] = tessel.all_gather %{{.*}} along "hidden" over ["model"] : !tessel.tensor<[batch:4, hidden:4], f32> -> !tessel.tensor<[batch:4, hidden:16], f32>
// CHECK-NOT: all_gather
// CHECK: %[[R:.*]] = tessel.reshape %[[G]] : !tessel.tensor<[batch:4, hidden:16], f32> -> !tessel.tensor<[batch:4, q:2, k:8], f32>
// CHECK: %[[B:.*]] = tessel.shard_slice %[[R]] along "k" over ["model"] : !tessel.tensor<[batch:4, q:2, k:8], f32> -> !tessel.tensor<[batch:4, q:2, k:2], f32>
// CHECK: return %[[B]]
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @reshape_minor_part(%x: !tessel.tensor<[batch:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>)
    -> !tessel.tensor<[batch:8, q:2, k:8], f32, #tessel.layout<{batch = [data], k = [model]}>> {
  %r = tessel.reshape %x : !tessel.tensor<[batch:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
      -> !tessel.tensor<[batch:8, q:2, k:8], f32, #tessel.layout<{batch = [data], k = [model]}>>
  return %r : !tessel.tensor<[batch:8, q:2, k:8], f32, #tessel.layout<{batch = [data], k = [model]}>>
}
}

// -----

// Padded splits (10 and 4 over 3): the batch, carried over, keeps its
// padded blocks through a local reshape with no mask; heads:4 over 3 gives
// blocks of 2 heads (8 elements) where hidden:12 over 3 has blocks of 4, so
// heads is gathered (dropping its padding) before the reshape.
// CHECK-LABEL: func.func @reshape_padded
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, heads:2, hd:3], f32>
// CHECK: %[[G:.*]] = tessel.all_gather %[[X]] along "heads" over ["model"] : !tessel.tensor<[batch:4, heads:2, hd:3], f32> -> !tessel.tensor<[batch:4, heads:6, hd:3], f32>
// CHECK: %[[W:.*]] = tessel.slice %[[G]] {dims = ["heads"], starts = array<i64: 0>} : !tessel.tensor<[batch:4, heads:6, hd:3], f32> -> !tessel.tensor<[batch:4, heads:4, hd:3], f32>
// CHECK: %[[R:.*]] = tessel.reshape %[[W]] : !tessel.tensor<[batch:4, heads:4, hd:3], f32> -> !tessel.tensor<[batch:4, hidden:12], f32>
// CHECK-NOT: tessel.select
// CHECK: return %[[R]]
module attributes {tessel.mesh = #tessel.mesh<[data:3, model:3]>} {
func.func @reshape_padded(%x: !tessel.tensor<[batch:10, heads:4, hd:3], f32, #tessel.layout<{batch = [data], heads = [model]}>>)
    -> !tessel.tensor<[batch:10, hidden:12], f32, #tessel.layout<{batch = [data]}>> {
  %r = tessel.reshape %x : !tessel.tensor<[batch:10, heads:4, hd:3], f32, #tessel.layout<{batch = [data], heads = [model]}>>
      -> !tessel.tensor<[batch:10, hidden:12], f32, #tessel.layout<{batch = [data]}>>
  return %r : !tessel.tensor<[batch:10, hidden:12], f32, #tessel.layout<{batch = [data]}>>
}
}
