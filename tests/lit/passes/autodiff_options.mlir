// RUN: not tessel-opt %s --tessel-autodiff=optimizer=lamb 2>&1 | FileCheck %s --check-prefix=OPTIMIZER
// RUN: not tessel-opt %s --tessel-autodiff --tessel-autodiff 2>&1 | FileCheck %s --check-prefix=TWICE
// RUN: tessel-opt %s --tessel-autodiff=function=loss | FileCheck %s --check-prefix=NAMED

// OPTIMIZER: error: tessel-autodiff: unknown optimizer 'lamb' (expected sgd, momentum, adam or adamw)
// TWICE: error: tessel-autodiff: the module already has a 'init' symbol
// NAMED-LABEL: func.func @loss(
// NAMED: tessel.parameter "w"
// NAMED-LABEL: func.func @train_step
// The other function runs on the trained parameter, an argument now.
// NAMED-LABEL: func.func @forward(
// NAMED-SAME: %[[W:[^:]*]]: !tessel.tensor<[batch:2], f32> {tessel.name = "w", tessel.role = "parameter"},
// NAMED-SAME: %[[X:[^:]*]]: !tessel.tensor<[batch:2], f32>)
// NAMED-NOT: tessel.parameter
// NAMED: tessel.einsum %[[X]], %[[W]]
// NAMED-LABEL: func.func @init
func.func @loss(%x: !tessel.tensor<[batch:2], f32>) -> !tessel.tensor<[], f32> {
  %w = tessel.parameter "w" ones scale 1.0 seed 0 : !tessel.tensor<[batch:2], f32>
  %y = tessel.einsum %x, %w : (!tessel.tensor<[batch:2], f32>,
      !tessel.tensor<[batch:2], f32>) -> !tessel.tensor<[], f32>
  return %y : !tessel.tensor<[], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:2], f32>) -> !tessel.tensor<[], f32> {
  %w = tessel.parameter "w" ones scale 1.0 seed 0 : !tessel.tensor<[batch:2], f32>
  %y = tessel.einsum %x, %w : (!tessel.tensor<[batch:2], f32>,
      !tessel.tensor<[batch:2], f32>) -> !tessel.tensor<[], f32>
  return %y : !tessel.tensor<[], f32>
}
