// Round trip of a parameter block (`block of`, made by tessel-partition)
// through the custom assembly format and the generic form.
// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt -mlir-print-op-generic %s | tessel-opt | FileCheck %s

// CHECK-LABEL: func.func @blocks
// CHECK: tessel.parameter "w1" normal scale 2.000000e-02 seed 1 block of !tessel.tensor<[pixels:784, hidden:256], f32, #tessel.layout<{hidden = [model]}>> : !tessel.tensor<[pixels:784, hidden:64], f32>
// An uneven split: 10 over 4 gives blocks of 3.
// CHECK: tessel.parameter "b1" zeros scale 1.000000e+00 seed 0 block of !tessel.tensor<[hidden:10], bf16, #tessel.layout<{hidden = [data, model]}>> : !tessel.tensor<[hidden:2], bf16>
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
func.func @blocks() -> (!tessel.tensor<[pixels:784, hidden:64], f32>,
                        !tessel.tensor<[hidden:2], bf16>) {
  %w = tessel.parameter "w1" normal scale 0.02 seed 1
      block of !tessel.tensor<[pixels:784, hidden:256], f32, #tessel.layout<{hidden = [model]}>>
      : !tessel.tensor<[pixels:784, hidden:64], f32>
  %b = tessel.parameter "b1" zeros scale 1.0 seed 0
      block of !tessel.tensor<[hidden:10], bf16, #tessel.layout<{hidden = [data, model]}>>
      : !tessel.tensor<[hidden:2], bf16>
  return %w, %b : !tessel.tensor<[pixels:784, hidden:64], f32>, !tessel.tensor<[hidden:2], bf16>
}
}
