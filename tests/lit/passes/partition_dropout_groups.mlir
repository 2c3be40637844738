// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-partition --tessel-optimize-comm | FileCheck %s --check-prefix=OPT

// Dropout on split dimensions runs on the rank's block, which keeps the
// global type in `block of` so that each element draws its mask from its
// global index; the step (a scalar) is the same on every rank.
// CHECK-LABEL: func.func @dropout
// CHECK-NOT: all_gather
// CHECK: %[[D:.*]] = tessel.dropout %arg0 step %arg1 rate 1.000000e-01 seed 5 block of !tessel.tensor<[b:8, h:16], f32, #tessel.layout<{b = [data], h = [model]}>> : !tessel.tensor<[b:4, h:4], f32>, !tessel.tensor<[], i64>
// CHECK-NEXT: return %[[D]]
// The slice of a whole dropout does not move above it (the block's mask
// would be drawn from the wrong indices).
// OPT-LABEL: func.func @dropout
// OPT: tessel.dropout {{.*}} block of
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @dropout(%x: !tessel.tensor<[b:8, h:16], f32, #tessel.layout<{b = [data], h = [model]}>>,
                   %s: !tessel.tensor<[], i64>)
    -> !tessel.tensor<[b:8, h:16], f32, #tessel.layout<{b = [data], h = [model]}>> {
  %d = tessel.dropout %x step %s rate 0.1 seed 5
      : !tessel.tensor<[b:8, h:16], f32, #tessel.layout<{b = [data], h = [model]}>>, !tessel.tensor<[], i64>
  return %d : !tessel.tensor<[b:8, h:16], f32, #tessel.layout<{b = [data], h = [model]}>>
}
}

// -----

// An unsplit dropout stays as it is.
// CHECK-LABEL: func.func @replicated
// CHECK: tessel.dropout %arg0 step %arg1 rate 1.000000e-01 seed 5 : !tessel.tensor<[b:8], f32>, !tessel.tensor<[], i32>
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
func.func @replicated(%x: !tessel.tensor<[b:8], f32>, %s: !tessel.tensor<[], i32>) -> !tessel.tensor<[b:8], f32> {
  %d = tessel.dropout %x step %s rate 0.1 seed 5 : !tessel.tensor<[b:8], f32>, !tessel.tensor<[], i32>
  return %d : !tessel.tensor<[b:8], f32>
}
}

// -----

// A grouped convolution gathers its split channels (here the input's c
// and the result's f) whole; the batch split stays.
// CHECK-LABEL: func.func @grouped
// CHECK: tessel.all_gather %arg0 along "c"
// CHECK: tessel.all_gather %arg1 along "f"
// CHECK: tessel.conv2d {{.*}}groups = 2
// CHECK-SAME: -> !tessel.tensor<[n:2, f:4, h:3, w:3], f32>
// CHECK: tessel.shard_slice {{.*}} along "f" over ["model"]
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:2]>} {
func.func @grouped(%x: !tessel.tensor<[n:4, c:6, h:5, w:5], f32, #tessel.layout<{n = [data], c = [model]}>>,
                   %k: !tessel.tensor<[c:3, f:4, kh:3, kw:3], f32, #tessel.layout<{f = [model]}>>)
    -> !tessel.tensor<[n:4, f:4, h:3, w:3], f32, #tessel.layout<{n = [data], f = [model]}>> {
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 2}
      : !tessel.tensor<[n:4, c:6, h:5, w:5], f32, #tessel.layout<{n = [data], c = [model]}>>,
        !tessel.tensor<[c:3, f:4, kh:3, kw:3], f32, #tessel.layout<{f = [model]}>>
      -> !tessel.tensor<[n:4, f:4, h:3, w:3], f32, #tessel.layout<{n = [data], f = [model]}>>
  return %y : !tessel.tensor<[n:4, f:4, h:3, w:3], f32, #tessel.layout<{n = [data], f = [model]}>>
}
}
