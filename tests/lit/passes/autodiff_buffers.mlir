// Buffers (tessel.parameter ... buffer: batch norm's running statistics):
// the training step takes and returns them with role "buffer", returns the
// value their tessel.update_buffer gives (or the buffer unchanged), gives
// them no optimizer state and no update from a gradient; @init initialises
// them; @evaluate takes them by name; no update_buffer survives.
// RUN: tessel-opt %s --tessel-autodiff=optimizer=adam | FileCheck %s
// RUN: tessel-opt %s --tessel-autodiff=optimizer=adam --tessel-apply-layout="mesh=data:2 rules=batch:data" --tessel-partition | FileCheck %s --check-prefix=DATA
// RUN: tessel-eval %s --check-gradients --promote-f64 --seed 3 | FileCheck %s --check-prefix=GRAD

!x = !tessel.tensor<[batch:4, c:3], f32>
!c = !tessel.tensor<[c:3], f32>
!s = !tessel.tensor<[], f32>

// CHECK-LABEL: func.func @forward
// CHECK-NOT: update_buffer
// CHECK-NOT: "bn.running
// CHECK: return

// CHECK-LABEL: func.func @train_step
// CHECK-SAME: {tessel.name = "bn.gamma", tessel.role = "parameter"}
// CHECK-SAME: %[[MEAN:[a-z0-9]+]]: !tessel.tensor<[c:3], f32> {tessel.name = "bn.running_mean", tessel.role = "buffer"}
// CHECK-SAME: %[[FROZEN:[a-z0-9]+]]: !tessel.tensor<[c:3], f32> {tessel.name = "bn.frozen", tessel.role = "buffer"}
// CHECK-SAME: {tessel.name = "bn.gamma.adam_m", tessel.role = "optimizer_state"}
// CHECK-SAME: {tessel.name = "bn.gamma.adam_v", tessel.nonnegative, tessel.role = "optimizer_state"}
// CHECK-NOT: running_mean.adam
// CHECK-SAME: {tessel.name = "step", tessel.nonnegative, tessel.role = "optimizer_state"}
// CHECK-SAME: -> (!tessel.tensor<[c:3], f32> {tessel.name = "bn.gamma"}, !tessel.tensor<[c:3], f32> {tessel.name = "bn.running_mean"}, !tessel.tensor<[c:3], f32> {tessel.name = "bn.frozen"}, !tessel.tensor<[c:3], f32> {tessel.name = "bn.gamma.adam_m"}, !tessel.tensor<[c:3], f32> {tessel.name = "bn.gamma.adam_v"}, !tessel.tensor<[], f32> {tessel.name = "step"}, !tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "gradient_norm"})
// CHECK-NOT: update_buffer
// CHECK: %[[KEPT:.*]] = tessel.mul %[[MEAN]], %{{.*}}
// CHECK: %[[NEW:.*]] = tessel.add %[[KEPT]], %{{.*}} {tessel.name = "bn.running_mean"}
// CHECK-NOT: update_buffer
// CHECK: return %{{.*}}, %[[NEW]], %[[FROZEN]], %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} :

// CHECK-LABEL: func.func @evaluate
// CHECK-SAME: {tessel.name = "bn.gamma", tessel.role = "parameter"}
// CHECK-SAME: {tessel.name = "bn.running_mean", tessel.role = "buffer"}
// CHECK-SAME: {tessel.name = "bn.frozen", tessel.role = "buffer"}
// CHECK-NOT: update_buffer
// CHECK: return

// CHECK-LABEL: func.func @init
// CHECK: tessel.parameter "bn.gamma" ones
// CHECK: tessel.parameter "bn.running_mean" zeros scale 1.000000e+00 seed 0 buffer
// CHECK: tessel.parameter "bn.frozen" ones scale 1.000000e+00 seed 0 buffer

// Under data parallelism the batch mean of the running statistic is
// completed by an all_reduce, so every rank holds the one-rank statistic.
// DATA-LABEL: func.func @train_step
// DATA: tessel.all_reduce
// DATA: {tessel.name = "bn.running_mean"}

// GRAD: gradient bn.gamma: 3 of 3 elements checked
// GRAD: gradient bn.running_mean: 3 of 3 elements checked, largest error 0
// GRAD: gradient check passed
func.func @forward(%x: !x {tessel.name = "x"}) -> !s {
  %gamma = tessel.parameter "bn.gamma" ones scale 1.0 seed 0 : !c
  %rm = tessel.parameter "bn.running_mean" zeros scale 1.0 seed 0 buffer : !c
  %frozen = tessel.parameter "bn.frozen" ones scale 1.0 seed 0 buffer : !c
  %mean = tessel.reduce mean %x : !x -> !c
  %m = tessel.constant 1.0e-01 : f32 -> !s
  %k = tessel.constant 9.0e-01 : f32 -> !s
  %kept = tessel.mul %rm, %k : !c, !s -> !c
  %add = tessel.mul %mean, %m : !c, !s -> !c
  %next = tessel.add %kept, %add : !c, !c -> !c
  %u = tessel.update_buffer %rm, %next : !c
  %centered = tessel.sub %x, %mean : !x, !c -> !x
  %scaled = tessel.mul %centered, %gamma : !x, !c -> !x
  %sq = tessel.mul %scaled, %scaled : !x, !x -> !x
  %loss = tessel.reduce mean %sq : !x -> !s
  return %loss : !s
}

func.func @evaluate(%x: !x {tessel.name = "x"}) -> (!s {tessel.name = "loss"}) {
  %gamma = tessel.parameter "bn.gamma" ones scale 1.0 seed 0 : !c
  %rm = tessel.parameter "bn.running_mean" zeros scale 1.0 seed 0 buffer : !c
  %frozen = tessel.parameter "bn.frozen" ones scale 1.0 seed 0 buffer : !c
  %centered = tessel.sub %x, %rm : !x, !c -> !x
  %scaled = tessel.mul %centered, %gamma : !x, !c -> !x
  %f = tessel.mul %scaled, %frozen : !x, !c -> !x
  %loss = tessel.reduce mean %f : !x -> !s
  return %loss : !s
}
