// RUN: tessel-opt %s --tessel-resize-dims="batch-size=32" | FileCheck %s
// RUN: tessel-opt %s --tessel-resize-dims="batch-size=32 sizes=group=32,batch=32,d=5" | FileCheck %s --check-prefix=AGREE
// RUN: not tessel-opt %s --tessel-resize-dims="batch-size=32 sizes=group=16" 2>&1 | FileCheck %s --check-prefix=DISAGREE
// RUN: not tessel-opt %s --tessel-resize-dims="batch-size=32 sizes=batch=16" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: not tessel-opt %s --tessel-resize-dims="batch-size=32 batch-dim=examples" 2>&1 | FileCheck %s --check-prefix=NOBATCH
// RUN: not tessel-opt %s --tessel-resize-dims="batch-size=-2" 2>&1 | FileCheck %s --check-prefix=NEGATIVE
// RUN: tessel-opt %s --tessel-resize-dims="batch-size=32 sizes=tokens=128" | FileCheck %s --check-prefix=AGREE-TOKENS
// RUN: not tessel-opt %s --tessel-resize-dims="batch-size=32 sizes=tokens=64" 2>&1 | FileCheck %s --check-prefix=MERGED

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
// MERGED: error: tessel-resize-dims: dimension 'tokens' holds the batch 'batch' merged with 4 elements of each example (a reshape gives it the batch's elements), so its size is 4 x the new batch size 32 = 128, but it is also given size 64
func.func @experts(%x: !tessel.tensor<[route:4, batch:16, d:3], f32>) -> !tessel.tensor<[route:4, batch:16, d:3], f32> {
  %g = tessel.reshape %x : !tessel.tensor<[route:4, batch:16, d:3], f32> -> !tessel.tensor<[experts:4, group:16, d:3], f32>
  %i = tessel.rename %g : !tessel.tensor<[experts:4, group:16, d:3], f32> -> !tessel.tensor<[experts:4, item:16, d:3], f32>
  %t = tessel.tanh %i : !tessel.tensor<[experts:4, item:16, d:3], f32>
  %r = tessel.reshape %t : !tessel.tensor<[experts:4, item:16, d:3], f32> -> !tessel.tensor<[route:4, batch:16, d:3], f32>
  return %r : !tessel.tensor<[route:4, batch:16, d:3], f32>
}

// A reshape that merges the batch, outermost, with the dimensions inside it
// (`seq`) scales the merged dimension with the batch: `tokens` holds 4
// elements of each example, so it takes 4 x 32, `flat` (the batch merged
// with `seq` and `e`) 8 x 32, and `word`, a rename of `tokens`, 4 x 32 too;
// the reshapes back split them into the new batch and the sizes inside it,
// which keep theirs.
// CHECK-LABEL: func.func @flatten
// CHECK-SAME: (%{{.*}}: !tessel.tensor<[batch:32, seq:4, e:2], f32>) -> !tessel.tensor<[batch:32, seq:4, e:2], f32>
// CHECK: tessel.reshape {{.*}} : !tessel.tensor<[batch:32, seq:4, e:2], f32> -> !tessel.tensor<[tokens:128, e:2], f32>
// CHECK: tessel.rename {{.*}} -> !tessel.tensor<[word:128, e:2], f32>
// CHECK: tessel.reshape {{.*}} : !tessel.tensor<[word:128, e:2], f32> -> !tessel.tensor<[flat:256], f32>
// CHECK: tessel.tanh {{.*}} : !tessel.tensor<[flat:256], f32>
// CHECK: tessel.reshape {{.*}} : !tessel.tensor<[flat:256], f32> -> !tessel.tensor<[tokens:128, e:2], f32>
// CHECK: tessel.reshape {{.*}} : !tessel.tensor<[tokens:128, e:2], f32> -> !tessel.tensor<[batch:32, seq:4, e:2], f32>
// AGREE-TOKENS-LABEL: func.func @flatten
// AGREE-TOKENS: -> !tessel.tensor<[tokens:128, e:2], f32>
func.func @flatten(%x: !tessel.tensor<[batch:16, seq:4, e:2], f32>) -> !tessel.tensor<[batch:16, seq:4, e:2], f32> {
  %t = tessel.reshape %x : !tessel.tensor<[batch:16, seq:4, e:2], f32> -> !tessel.tensor<[tokens:64, e:2], f32>
  %i = tessel.rename %t : !tessel.tensor<[tokens:64, e:2], f32> -> !tessel.tensor<[word:64, e:2], f32>
  %f = tessel.reshape %i : !tessel.tensor<[word:64, e:2], f32> -> !tessel.tensor<[flat:128], f32>
  %y = tessel.tanh %f : !tessel.tensor<[flat:128], f32>
  %b = tessel.reshape %y : !tessel.tensor<[flat:128], f32> -> !tessel.tensor<[tokens:64, e:2], f32>
  %r = tessel.reshape %b : !tessel.tensor<[tokens:64, e:2], f32> -> !tessel.tensor<[batch:16, seq:4, e:2], f32>
  return %r : !tessel.tensor<[batch:16, seq:4, e:2], f32>
}
