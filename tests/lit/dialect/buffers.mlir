// Buffers and their updates: round trip and the verifier's errors; the
// evaluator's value is in tests/lit/evaluator/buffers.mlir.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics | FileCheck %s
// RUN: tessel-opt %s -split-input-file -verify-diagnostics | tessel-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @yields
// CHECK: tessel.parameter "rm" zeros scale 1.000000e+00 seed 0 buffer : !tessel.tensor<[c:2], f32>
// CHECK: tessel.update_buffer %{{.*}}, %{{.*}} : !tessel.tensor<[c:2], f32>
func.func @yields() -> !tessel.tensor<[c:2], f32> {
  %rm = tessel.parameter "rm" zeros scale 1.0 seed 0 buffer : !tessel.tensor<[c:2], f32>
  %v = tessel.constant dense<[3.0, -1.0]> : tensor<2xf32> -> !tessel.tensor<[c:2], f32>
  %u = tessel.update_buffer %rm, %v : !tessel.tensor<[c:2], f32>
  return %u : !tessel.tensor<[c:2], f32>
}

// -----

func.func @not_a_buffer() {
  %w = tessel.parameter "w" zeros scale 1.0 seed 0 : !tessel.tensor<[c:2], f32>
  // expected-error @+1 {{'tessel.update_buffer' op updates a value that is not a buffer (a tessel.parameter marked `buffer`)}}
  %u = tessel.update_buffer %w, %w : !tessel.tensor<[c:2], f32>
  return
}

// -----

func.func @types_differ(%v: !tessel.tensor<[c:2], f64>) {
  %rm = tessel.parameter "rm" zeros scale 1.0 seed 0 buffer : !tessel.tensor<[c:2], f32>
  // expected-error @+1 {{'tessel.update_buffer' op failed to verify that all of {buffer, value, result} have same type}}
  %u = "tessel.update_buffer"(%rm, %v) : (!tessel.tensor<[c:2], f32>, !tessel.tensor<[c:2], f64>) -> !tessel.tensor<[c:2], f32>
  return
}
