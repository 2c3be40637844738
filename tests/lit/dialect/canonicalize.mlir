// The folders: cast, rename, reshape and transpose to their own type fold
// away; constants fold (identical constants are merged, dead ones erased).
// RUN: tessel-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @identity_casts
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, hidden:8], f32>)
// CHECK-NOT: = tessel.
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]] :
func.func @identity_casts(%x: !tessel.tensor<[batch:4, hidden:8], f32>)
    -> (!tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[batch:4, hidden:8], f32>,
        !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[batch:4, hidden:8], f32>) {
  %c = tessel.cast %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
  %s = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
  %t = tessel.transpose %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
  return %c, %r, %s, %t : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[batch:4, hidden:8], f32>,
      !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[batch:4, hidden:8], f32>
}

// -----

// A chain of identities folds all the way back to the argument.
// CHECK-LABEL: func.func @identity_chain
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[k:3], f32>)
// CHECK-NEXT: return %[[X]]
func.func @identity_chain(%x: !tessel.tensor<[k:3], f32>) -> !tessel.tensor<[k:3], f32> {
  %a = tessel.cast %x : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
  %b = tessel.transpose %a : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
  %c = tessel.rename %b : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
  %d = tessel.reshape %c : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
  return %d : !tessel.tensor<[k:3], f32>
}

// -----

// Ops that change the type stay.
// CHECK-LABEL: func.func @real_changes
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, hidden:8], f32>)
// CHECK: %[[C:.*]] = tessel.cast %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], bf16>
// CHECK: %[[R:.*]] = tessel.rename %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, features:8], f32>
// CHECK: %[[S:.*]] = tessel.reshape %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[n:32], f32>
// CHECK: %[[T:.*]] = tessel.transpose %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
// CHECK: return %[[C]], %[[R]], %[[S]], %[[T]]
func.func @real_changes(%x: !tessel.tensor<[batch:4, hidden:8], f32>)
    -> (!tessel.tensor<[batch:4, hidden:8], bf16>, !tessel.tensor<[batch:4, features:8], f32>,
        !tessel.tensor<[n:32], f32>, !tessel.tensor<[hidden:8, batch:4], f32>) {
  %c = tessel.cast %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], bf16>
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, features:8], f32>
  %s = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[n:32], f32>
  %t = tessel.transpose %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  return %c, %r, %s, %t : !tessel.tensor<[batch:4, hidden:8], bf16>, !tessel.tensor<[batch:4, features:8], f32>,
      !tessel.tensor<[n:32], f32>, !tessel.tensor<[hidden:8, batch:4], f32>
}

// -----

// A cast that only changes the layout is not an identity.
// CHECK-LABEL: func.func @layout_cast
// CHECK: tessel.cast
func.func @layout_cast(%x: !tessel.tensor<[batch:4], f32>)
    -> !tessel.tensor<[batch:4], f32, #tessel.layout<{batch = [data]}>> {
  %c = tessel.cast %x : !tessel.tensor<[batch:4], f32>
      -> !tessel.tensor<[batch:4], f32, #tessel.layout<{batch = [data]}>>
  return %c : !tessel.tensor<[batch:4], f32, #tessel.layout<{batch = [data]}>>
}

// -----

// Identical constants are merged and unused ones are erased.
// CHECK-LABEL: func.func @constants
// CHECK: %[[HALF:.*]] = tessel.constant 5.000000e-01 : f32 -> !tessel.tensor<[], f32>
// CHECK-NOT: tessel.constant
// CHECK: %[[SUM:.*]] = tessel.add %[[HALF]], %[[HALF]]
// CHECK: return %[[SUM]]
func.func @constants() -> !tessel.tensor<[], f32> {
  %a = tessel.constant 0.5 : f32 -> !tessel.tensor<[], f32>
  %b = tessel.constant 0.5 : f32 -> !tessel.tensor<[], f32>
  %dead = tessel.constant dense<[1.0, 2.0]> : tensor<2xf32> -> !tessel.tensor<[k:2], f32>
  %s = tessel.add %a, %b : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
  return %s : !tessel.tensor<[], f32>
}

// -----

// Constants with the same value but different types stay apart.
// CHECK-LABEL: func.func @constants_of_two_types
// CHECK-DAG: %[[A:.*]] = tessel.constant 1.000000e+00 : f32 -> !tessel.tensor<[i:2], f32>
// CHECK-DAG: %[[B:.*]] = tessel.constant 1.000000e+00 : f32 -> !tessel.tensor<[j:2], f32>
// CHECK: return %[[A]], %[[B]]
func.func @constants_of_two_types() -> (!tessel.tensor<[i:2], f32>, !tessel.tensor<[j:2], f32>) {
  %a = tessel.constant 1.0 : f32 -> !tessel.tensor<[i:2], f32>
  %b = tessel.constant 1.0 : f32 -> !tessel.tensor<[j:2], f32>
  return %a, %b : !tessel.tensor<[i:2], f32>, !tessel.tensor<[j:2], f32>
}
