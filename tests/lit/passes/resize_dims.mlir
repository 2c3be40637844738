// RUN: tessel-opt %s --tessel-resize-dims="sizes=batch=8,hidden=6" | FileCheck %s
// RUN: not tessel-opt %s --tessel-resize-dims="sizes=batchx=8" 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: not tessel-opt %s --tessel-resize-dims="sizes=batch=0" 2>&1 | FileCheck %s --check-prefix=BADSIZE
// RUN: not tessel-opt %s --tessel-resize-dims="sizes=k=5" 2>&1 | FileCheck %s --check-prefix=FIXED
// RUN: not tessel-opt %s --tessel-resize-dims="sizes=hidden=4611686018427387904" 2>&1 | FileCheck %s --check-prefix=HUGE
// RUN: not tessel-opt %s --tessel-resize-dims="sizes=batch=9223372036854775807" 2>&1 | FileCheck %s --check-prefix=HUGEBATCH
// RUN: not tessel-opt %s --tessel-resize-dims="sizes=hidden=5,hidden=7" 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: tessel-opt %s --tessel-resize-dims="sizes=batch=8,hidden=6,hidden=6" | FileCheck %s

// Two sizes for one dimension are an error, not the last one silently;
// the same size twice is fine.
// TWICE: error: tessel-resize-dims: dimension 'hidden' is given two sizes, 5 and 7

// A size whose tensors' byte counts overflow is an error naming the
// dimension (2^62 f32 elements are 2^64 bytes), not IR that cannot be read
// back.
// HUGE: error: tessel-resize-dims: dimension 'hidden' of size 4611686018427387904 makes the tensor larger than 2^63 - 1 bytes
// HUGE-NOT: error
// HUGEBATCH: error: tessel-resize-dims: dimension 'batch' of size 9223372036854775807 makes the tensor larger than 2^63 - 1 bytes

// Every tensor type with a resized dimension follows, the function types
// included; other dimensions keep their sizes.
// CHECK-LABEL: func.func @dense
// CHECK-SAME: (%{{.*}}: !tessel.tensor<[batch:8, k:3], f32>)
// CHECK-SAME: -> !tessel.tensor<[batch:8, hidden:6], f32>
// CHECK: tessel.parameter "w" {{.*}} : !tessel.tensor<[k:3, hidden:6], f32>
// CHECK: tessel.einsum {{.*}} -> !tessel.tensor<[batch:8, hidden:6], f32>
// CHECK: tessel.relu {{.*}} : !tessel.tensor<[batch:8, hidden:6], f32>
func.func @dense(%x: !tessel.tensor<[batch:4, k:3], f32>) -> !tessel.tensor<[batch:4, hidden:2], f32> {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !tessel.tensor<[k:3, hidden:2], f32>
  %y = tessel.einsum %x, %w : (!tessel.tensor<[batch:4, k:3], f32>, !tessel.tensor<[k:3, hidden:2], f32>)
      -> !tessel.tensor<[batch:4, hidden:2], f32>
  %r = tessel.relu %y : !tessel.tensor<[batch:4, hidden:2], f32>
  return %r : !tessel.tensor<[batch:4, hidden:2], f32>
}

// A dense constant states its size in its value, so `k` cannot change.
// CHECK-LABEL: func.func @fixed
func.func @fixed() -> !tessel.tensor<[k:3], f32> {
  %c = tessel.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> !tessel.tensor<[k:3], f32>
  return %c : !tessel.tensor<[k:3], f32>
}

// UNKNOWN: error: tessel-resize-dims: no tensor has a dimension named 'batchx'
// BADSIZE: error: tessel-resize-dims: 'batch=0' is not NAME=SIZE with a positive SIZE
// FIXED: resize_dims.mlir:{{[0-9]+}}:8: error: 'tessel.constant' op value has 3 elements but the result has 5
// FIXED: error: tessel-resize-dims: the model does not allow these sizes
