// RUN: tessel-opt %s -split-input-file --tessel-partition | FileCheck %s

// Each rank initialises its own block of a split parameter: the op gets
// the block type and keeps the global one in `block of`; nothing is made
// whole and sliced.

// A dimension split over one axis, another over two.
// CHECK-LABEL: func.func @split
// CHECK-NOT: shard_slice
// CHECK: %[[W:.*]] = tessel.parameter "w" normal scale 2.000000e-02 seed 3 block of !tessel.tensor<[k:8, n:16], f32, #tessel.layout<{k = [model], n = [data, model2]}>> : !tessel.tensor<[k:2, n:4], f32>
// CHECK-NOT: shard_slice
// CHECK: return %[[W]]
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4, model2:2]>} {
func.func @split() -> !tessel.tensor<[k:8, n:16], f32, #tessel.layout<{k = [model], n = [data, model2]}>> {
  %w = tessel.parameter "w" normal scale 0.02 seed 3
      : !tessel.tensor<[k:8, n:16], f32, #tessel.layout<{k = [model], n = [data, model2]}>>
  return %w : !tessel.tensor<[k:8, n:16], f32, #tessel.layout<{k = [model], n = [data, model2]}>>
}
}

// -----

// A replicated parameter stays whole, as in the global program.
// CHECK-LABEL: func.func @replicated
// CHECK: %[[W:.*]] = tessel.parameter "w" uniform scale 1.000000e+00 seed 1 : !tessel.tensor<[k:8], f32>
// CHECK-NEXT: return %[[W]]
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
func.func @replicated() -> !tessel.tensor<[k:8], f32> {
  %w = tessel.parameter "w" uniform scale 1.0 seed 1 : !tessel.tensor<[k:8], f32>
  return %w : !tessel.tensor<[k:8], f32>
}
}

// -----

// An uneven split (7 over 3, blocks of 3): the block holds zeros past the
// end, so no mask follows it.
// CHECK-LABEL: func.func @padded
// CHECK: %[[W:.*]] = tessel.parameter "w" normal {{.*}} block of !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>> : !tessel.tensor<[hidden:3], f32>
// CHECK-NEXT: return %[[W]]
module attributes {tessel.mesh = #tessel.mesh<[model:3]>} {
func.func @padded() -> !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>> {
  %w = tessel.parameter "w" normal scale 1.0 seed 2
      : !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>
  return %w : !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>
}
}

// -----

// A consumer that wants the parameter split another way reshards the
// rank's block (here: gathers it), as for any value.
// CHECK-LABEL: func.func @resharded
// CHECK: %[[W:.*]] = tessel.parameter "w" {{.*}} block of {{.*}} : !tessel.tensor<[k:4], f32>
// CHECK: tessel.all_gather %[[W]] along "k" over ["data"] : !tessel.tensor<[k:4], f32> -> !tessel.tensor<[k:8], f32>
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
func.func @resharded(%x: !tessel.tensor<[k:8], f32>) -> !tessel.tensor<[k:8], f32> {
  %w = tessel.parameter "w" normal scale 1.0 seed 2
      : !tessel.tensor<[k:8], f32, #tessel.layout<{k = [data]}>>
  %y = tessel.add %x, %w : !tessel.tensor<[k:8], f32>,
      !tessel.tensor<[k:8], f32, #tessel.layout<{k = [data]}>> -> !tessel.tensor<[k:8], f32>
  return %y : !tessel.tensor<[k:8], f32>
}
}

// -----

// A splat constant (optimizer state starts as one) is the same splat of the
// block type; a dense constant is made whole and sliced. A splat of zero
// keeps the padding of an uneven split zero; another splat is masked.
// CHECK-LABEL: func.func @constants
// CHECK-DAG: %[[Z:.*]] = tessel.constant 0.000000e+00 : f32 -> !tessel.tensor<[hidden:3], f32>
// CHECK-DAG: %[[O:.*]] = tessel.constant 1.000000e+00 : f32 -> !tessel.tensor<[hidden:3], f32>
// CHECK-DAG: %[[D:.*]] = tessel.constant dense<{{.*}}> : tensor<7xf32> -> !tessel.tensor<[hidden:7], f32>
// CHECK-DAG: tessel.shard_slice %[[D]] along "hidden" over ["model"]
// CHECK-DAG: %[[OM:.*]] = tessel.select %{{.*}}, %[[O]], %{{.*}}
// CHECK: return %[[Z]], %[[OM]], %{{.*}} :
module attributes {tessel.mesh = #tessel.mesh<[model:3]>} {
func.func @constants() -> (!tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>,
                           !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>,
                           !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>) {
  %z = tessel.constant 0.0 : f32 -> !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>
  %o = tessel.constant 1.0 : f32 -> !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>
  %d = tessel.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]> : tensor<7xf32>
      -> !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>
  return %z, %o, %d : !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>,
      !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>,
      !tessel.tensor<[hidden:7], f32, #tessel.layout<{hidden = [model]}>>
}
}
