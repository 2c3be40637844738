// tessel-lift-parameters (tessel compile --mode infer): every function takes
// its parameters and buffers as leading named arguments with a role, in the
// order of their ops; a name declared twice is one argument; buffer updates
// go; nothing is added for training (no @init, no @train_step, no optimizer
// state). Laid out and partitioned, the arguments get their blocks.
// RUN: tessel-opt %s -split-input-file --tessel-lift-parameters | FileCheck %s
// RUN: tessel-opt %s -split-input-file --tessel-lift-parameters --tessel-apply-layout="mesh=data:2;model:2 rules=batch:data;c:model" --tessel-partition | FileCheck %s --check-prefix=SPLIT

!x = !tessel.tensor<[batch:4, c:4], f32>
!c = !tessel.tensor<[c:4], f32>
!b = !tessel.tensor<[batch:4], f32>
!s = !tessel.tensor<[], f32>

// CHECK-NOT: func.func @init
// CHECK-NOT: func.func @train_step
// CHECK-NOT: optimizer_state
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %[[W:[a-z0-9]+]]: !tessel.tensor<[c:4], f32> {tessel.name = "w", tessel.role = "parameter"}
// CHECK-SAME: %[[RM:[a-z0-9]+]]: !tessel.tensor<[c:4], f32> {tessel.name = "bn.running_mean", tessel.role = "buffer"}
// CHECK-SAME: %[[X:[a-z0-9]+]]: !tessel.tensor<[batch:4, c:4], f32> {tessel.name = "x"})
// CHECK-NOT: tessel.parameter
// CHECK-NOT: update_buffer
// CHECK: tessel.sub %[[X]], %[[RM]]
// CHECK: return

// CHECK-LABEL: func.func @predict(
// CHECK-SAME: %[[W2:[a-z0-9]+]]: !tessel.tensor<[c:4], f32> {tessel.name = "w", tessel.role = "parameter"}
// CHECK-SAME: %[[X2:[a-z0-9]+]]: !tessel.tensor<[batch:4, c:4], f32> {tessel.name = "x"})
// CHECK-SAME: -> (!tessel.tensor<[batch:4], f32> {tessel.name = "scores"})
// CHECK-NOT: tessel.parameter
// CHECK: %[[P:.*]] = tessel.mul %[[X2]], %[[W2]]
// CHECK: %[[Q:.*]] = tessel.mul %[[P]], %[[W2]]
// CHECK: tessel.reduce sum %[[Q]]
// CHECK-NOT: func.func @init
// CHECK-NOT: func.func @train_step

// The parameters are laid out by their names like any tensor: `w` split over
// model, its local block an argument of the function.
// SPLIT-LABEL: func.func @predict(
// SPLIT-SAME: !tessel.tensor<[c:2], f32> {tessel.global_type = !tessel.tensor<[c:4], f32, #tessel.layout<{c = [model]}>>, tessel.name = "w", tessel.role = "parameter"}
// SPLIT-SAME: !tessel.tensor<[batch:2, c:2], f32>
// SPLIT: tessel.all_reduce sum
func.func @forward(%x: !x {tessel.name = "x"}) -> !s {
  %w = tessel.parameter "w" normal scale 0.1 seed 1 : !c
  %rm = tessel.parameter "bn.running_mean" zeros scale 1.0 seed 0 buffer : !c
  %mean = tessel.reduce mean %x : !x -> !c
  %u = tessel.update_buffer %rm, %mean : !c
  %centered = tessel.sub %x, %rm : !x, !c -> !x
  %scaled = tessel.mul %centered, %w : !x, !c -> !x
  %loss = tessel.reduce mean %scaled : !x -> !s
  return %loss : !s
}

// `w` twice: one weight, one argument.
func.func @predict(%x: !x {tessel.name = "x"}) -> (!b {tessel.name = "scores"}) {
  %w = tessel.parameter "w" normal scale 0.1 seed 1 : !c
  %p = tessel.mul %x, %w : !x, !c -> !x
  %again = tessel.parameter "w" normal scale 0.1 seed 1 : !c
  %q = tessel.mul %p, %again : !x, !c -> !x
  %y = tessel.reduce sum %q : !x -> !b
  return %y : !b
}

// -----

// A function without parameters is left as it is.
// CHECK-LABEL: func.func @scale(
// CHECK-SAME: %{{.*}}: !tessel.tensor<[n:2], f32>)
func.func @scale(%x: !tessel.tensor<[n:2], f32>) -> !tessel.tensor<[n:2], f32> {
  return %x : !tessel.tensor<[n:2], f32>
}
