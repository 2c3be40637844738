// RUN: tessel-opt %s -split-input-file --tessel-autodiff | FileCheck %s --check-prefix=SGD
// RUN: tessel-opt %s -split-input-file --tessel-autodiff="optimizer=momentum momentum=0.5" | FileCheck %s --check-prefix=MOMENTUM
// RUN: tessel-opt %s -split-input-file --tessel-autodiff="optimizer=adamw weight-decay=0.01 clip-norm=1.0" | FileCheck %s --check-prefix=ADAMW

// A linear model y = x . w + b with the mean squared output as its loss.
// The labels-free data argument x gets no gradient in the step.

// SGD-LABEL: func.func @forward
// SGD: tessel.parameter "w"

// SGD-LABEL: func.func @train_step(
// SGD-SAME: %[[W:.*]]: !tessel.tensor<[k:3], f32> {tessel.name = "w", tessel.role = "parameter"},
// SGD-SAME: %[[B:.*]]: !tessel.tensor<[], f32> {tessel.name = "b", tessel.role = "parameter"},
// SGD-SAME: %[[X:.*]]: !tessel.tensor<[batch:4, k:3], f32> {tessel.name = "x"},
// SGD-SAME: %[[LR:.*]]: !tessel.tensor<[], f32> {tessel.name = "learning_rate"})
// SGD-SAME: -> (!tessel.tensor<[k:3], f32> {tessel.name = "w"}, !tessel.tensor<[], f32> {tessel.name = "b"}, !tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "gradient_norm"})
// SGD-NOT: tessel.parameter
// SGD: %[[XW:.*]] = tessel.einsum %[[X]], %[[W]]
// SGD: %[[Y:.*]] = tessel.add %[[XW]], %[[B]]
// SGD: %[[SQ:.*]] = tessel.mul %[[Y]], %[[Y]]
// SGD: %[[LOSS:.*]] = tessel.reduce mean %[[SQ]]
// The gradient of the mean is spread over the batch ...
// SGD: %[[DSQ:.*]] = tessel.broadcast {{.*}} -> !tessel.tensor<[batch:4], f32>
// ... both factors of y * y send it back to y, where it adds up ...
// SGD: %[[DY1:.*]] = tessel.mul %[[DSQ]], %[[Y]]
// SGD: %[[DY2:.*]] = tessel.mul %[[DSQ]], %[[Y]]
// SGD: %[[DY:.*]] = tessel.add %[[DY1]], %[[DY2]]
// ... the bias sums it over the batch, the weight contracts it with x.
// SGD: %[[DB:.*]] = tessel.reduce sum %[[DY]] : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[], f32>
// SGD: %[[DW:.*]] = tessel.einsum %[[DY]], %[[X]] : {{.*}} -> !tessel.tensor<[k:3], f32>
// The step returns the gradients' global norm, their squares' sums added
// after all of them are taken (so that split ones all-reduce together).
// SGD: %[[DW2:.*]] = tessel.mul %[[DW]], %[[DW]]
// SGD: %[[SW:.*]] = tessel.reduce sum %[[DW2]]
// SGD: %[[DB2:.*]] = tessel.mul %[[DB]], %[[DB]]
// SGD: %[[SB:.*]] = tessel.reduce sum %[[DB2]]
// SGD: %[[SS:.*]] = tessel.add %[[SW]], %[[SB]]
// SGD: %[[NORM:.*]] = tessel.sqrt %[[SS]] {tessel.name = "gradient_norm"}
// SGD: %[[STEPW:.*]] = tessel.mul %[[DW]], %[[LR]]
// SGD: %[[NEWW:.*]] = tessel.sub %[[W]], %[[STEPW]]
// SGD: %[[STEPB:.*]] = tessel.mul %[[DB]], %[[LR]]
// SGD: %[[NEWB:.*]] = tessel.sub %[[B]], %[[STEPB]]
// SGD: return %[[NEWW]], %[[NEWB]], %[[LOSS]], %[[NORM]]

// SGD-LABEL: func.func @init()
// SGD-SAME: -> (!tessel.tensor<[k:3], f32> {tessel.name = "w"}, !tessel.tensor<[], f32> {tessel.name = "b"})
// SGD: %[[IW:.*]] = tessel.parameter "w" normal scale 1.000000e-01 seed 7
// SGD: %[[IB:.*]] = tessel.parameter "b" zeros
// SGD: return %[[IW]], %[[IB]]

// MOMENTUM-LABEL: func.func @train_step(
// MOMENTUM-SAME: {tessel.name = "w", tessel.role = "parameter"}
// MOMENTUM-SAME: {tessel.name = "b", tessel.role = "parameter"}
// MOMENTUM-SAME: %[[VW:[^:]*]]: !tessel.tensor<[k:3], f32> {tessel.name = "w.momentum", tessel.role = "optimizer_state"}
// MOMENTUM-SAME: {tessel.name = "b.momentum", tessel.role = "optimizer_state"}
// MOMENTUM-SAME: {tessel.name = "x"}
// MOMENTUM-SAME: {tessel.name = "learning_rate"}
// MOMENTUM: %[[MU:.*]] = tessel.constant 5.000000e-01
// MOMENTUM: %[[DECAYED:.*]] = tessel.mul %[[VW]], %[[MU]]
// MOMENTUM: tessel.add %[[DECAYED]],
// MOMENTUM-LABEL: func.func @init()
// MOMENTUM: tessel.constant 0.000000e+00 : f32 {tessel.name = "w.momentum"} -> !tessel.tensor<[k:3], f32>

// Clipping scales by the global norm the step returns.
// ADAMW-LABEL: func.func @train_step(
// ADAMW-SAME: {tessel.name = "w.adam_m", tessel.role = "optimizer_state"}
// ADAMW-SAME: {tessel.name = "w.adam_v", tessel.nonnegative, tessel.role = "optimizer_state"}
// ADAMW-SAME: {tessel.name = "b.adam_m", tessel.role = "optimizer_state"}
// ADAMW-SAME: {tessel.name = "b.adam_v", tessel.nonnegative, tessel.role = "optimizer_state"}
// ADAMW-SAME: {tessel.name = "step", tessel.nonnegative, tessel.role = "optimizer_state"}
// ADAMW-SAME: {tessel.name = "step"}, !tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "gradient_norm"})
// ADAMW: %[[NORM2:.*]] = tessel.add
// ADAMW: %[[NORM:.*]] = tessel.sqrt %[[NORM2]]
// ADAMW: tessel.max %[[NORM]],
// ADAMW: tessel.pow
// ADAMW: tessel.sqrt
// ADAMW-LABEL: func.func @init()
func.func @forward(%x: !tessel.tensor<[batch:4, k:3], f32> {tessel.name = "x"})
    -> !tessel.tensor<[], f32> {
  %w = tessel.parameter "w" normal scale 0.1 seed 7 : !tessel.tensor<[k:3], f32>
  %b = tessel.parameter "b" zeros scale 1.0 seed 0 : !tessel.tensor<[], f32>
  %xw = tessel.einsum %x, %w
      : (!tessel.tensor<[batch:4, k:3], f32>, !tessel.tensor<[k:3], f32>)
      -> !tessel.tensor<[batch:4], f32>
  %y = tessel.add %xw, %b : !tessel.tensor<[batch:4], f32>, !tessel.tensor<[], f32>
      -> !tessel.tensor<[batch:4], f32>
  %sq = tessel.mul %y, %y : !tessel.tensor<[batch:4], f32>, !tessel.tensor<[batch:4], f32>
      -> !tessel.tensor<[batch:4], f32>
  %loss = tessel.reduce mean %sq : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
