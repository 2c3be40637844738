// RUN: tessel-opt %s --tessel-resize-dims="batch-size=32" | FileCheck %s
// RUN: tessel-opt %s --tessel-resize-dims="batch-size=32 sizes=group=32,batch=32,d=5" | FileCheck %s --check-prefix=AGREE
// RUN: not tessel-opt %s --tessel-resize-dims="batch-size=32 sizes=group=16" 2>&1 | FileCheck %s --check-prefix=DISAGREE
// RUN: not tessel-opt %s --tessel-resize-dims="batch-size=32 sizes=batch=16" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not tessel-opt %s --tessel-resize-dims="batch-size=32 batch-dim=examples" 2>&1 | FileCheck %s --check-prefix=NOBATCH
// RUN: not tessel-opt %s --tessel-resize-dims="batch-size=-2" 2>&1 | FileCheck %s --check-prefix=NEGATIVE

// batch-size resizes the batch under each name it goes by: `group`, which a
// reshape that keeps it a dimension of its own gives it (a mixture of
// experts' two namings), and `item`, which a rename of `group` gives it;
// `route`/`experts` and `d` keep their sizes.
// CHECK-LABEL: func.func @experts
// CHECK-SAME: (%{{.*}}: !tessel.tensor<[route:4, batch:32, d:3], f32>) -> !tessel.tensor<[route:4, batch:32, d:3], f32>
// CHECK: tessel.reshape {{.*}} -> !tessel.tensor<[experts:4, group:32, d:3], f32>
// CHECK: tessel.rename {{.*}} -> !tessel.tensor<[experts:4, item:32, d:3], f32>
// CHECK: tessel.tanh {{.*}} : !tessel.tensor<[experts:4, item:32, d:3], f32>
// CHECK: tessel.reshape {{.*}} -> !tessel.tensor<[route:4, batch:32, d:3], f32>
// AGREE-LABEL: func.func @experts
// AGREE-SAME: (%{{.*}}: !tessel.tensor<[route:4, batch:32, d:5], f32>)
// AGREE: tessel.reshape {{.*}} -> !tessel.tensor<[experts:4, group:32, d:5], f32>

// A size given by name for a dimension that holds the batch must be the
// batch's: the error names both.
// DISAGREE: error: tessel-resize-dims: dimension 'group' holds the batch 'batch' (a reshape or rename gives it the batch's elements), so the new batch size 32 is its size too, but it is also given size 16
// TWICE: error: tessel-resize-dims: dimension 'batch' is given two sizes, 16 and 32
// NOBATCH: error: tessel-resize-dims: no tensor has a dimension named 'examples' (the batch that batch-size resizes)
// NEGATIVE: error: tessel-resize-dims: batch-size -2 is not a positive size
func.func @experts(%x: !tessel.tensor<[route:4, batch:16, d:3], f32>) -> !tessel.tensor<[route:4, batch:16, d:3], f32> {
  %g = tessel.reshape %x : !tessel.tensor<[route:4, batch:16, d:3], f32> -> !tessel.tensor<[experts:4, group:16, d:3], f32>
  %i = tessel.rename %g : !tessel.tensor<[experts:4, group:16, d:3], f32> -> !tessel.tensor<[experts:4, item:16, d:3], f32>
  %t = tessel.tanh %i : !tessel.tensor<[experts:4, item:16, d:3], f32>
  %r = tessel.reshape %t : !tessel.tensor<[experts:4, item:16, d:3], f32> -> !tessel.tensor<[route:4, batch:16, d:3], f32>
  return %r : !tessel.tensor<[route:4, batch:16, d:3], f32>
}
