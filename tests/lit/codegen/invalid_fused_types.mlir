// RUN: tessel-opt %s -split-input-file -verify-diagnostics --tessel-lower-to-runtime

// The runtime computes fused bodies in f32, bf16 or f16 with i1 conditions;
// other element types are refused when the program is compiled, not when it first runs.

func.func @f64_body(%x: !tessel.tensor<[n:4], f64>) -> !tessel.tensor<[n:4], f64> {
  // expected-error @+1 {{the runtime computes fused ops in f32, bf16 or f16, but this one gives '!tessel.tensor<[n:4], f64>'}}
  %y = tessel.fused %x : (!tessel.tensor<[n:4], f64>) -> !tessel.tensor<[n:4], f64> {
  ^bb0(%a: !tessel.tensor<[n:4], f64>):
    %e = tessel.exp %a : !tessel.tensor<[n:4], f64> -> !tessel.tensor<[n:4], f64>
    %l = tessel.log %e : !tessel.tensor<[n:4], f64> -> !tessel.tensor<[n:4], f64>
    tessel.yield %l : !tessel.tensor<[n:4], f64>
  }
  return %y : !tessel.tensor<[n:4], f64>
}

// -----

func.func @i32_body(%x: !tessel.tensor<[n:4], i32>) -> !tessel.tensor<[n:4], i32> {
  // expected-error @+1 {{but this one gives '!tessel.tensor<[n:4], i32>'}}
  %y = tessel.fused %x : (!tessel.tensor<[n:4], i32>) -> !tessel.tensor<[n:4], i32> {
  ^bb0(%a: !tessel.tensor<[n:4], i32>):
    %s = tessel.add %a, %a : !tessel.tensor<[n:4], i32>, !tessel.tensor<[n:4], i32> -> !tessel.tensor<[n:4], i32>
    %t = tessel.mul %s, %a : !tessel.tensor<[n:4], i32>, !tessel.tensor<[n:4], i32> -> !tessel.tensor<[n:4], i32>
    tessel.yield %t : !tessel.tensor<[n:4], i32>
  }
  return %y : !tessel.tensor<[n:4], i32>
}

// -----

// An f32 result computed from an f64 comparison.
func.func @f64_condition(%x: !tessel.tensor<[n:4], f64>, %y: !tessel.tensor<[n:4], f32>) -> !tessel.tensor<[n:4], f32> {
  %r = tessel.fused %x, %y : (!tessel.tensor<[n:4], f64>, !tessel.tensor<[n:4], f32>) -> !tessel.tensor<[n:4], f32> {
  ^bb0(%a: !tessel.tensor<[n:4], f64>, %b: !tessel.tensor<[n:4], f32>):
    // expected-error @+1 {{'tessel.compare' here has '!tessel.tensor<[n:4], f64>'}}
    %positive = tessel.compare gt, %a, %a : !tessel.tensor<[n:4], f64>, !tessel.tensor<[n:4], f64> -> !tessel.tensor<[n:4], i1>
    %s = tessel.select %positive, %b, %b : !tessel.tensor<[n:4], i1>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32> -> !tessel.tensor<[n:4], f32>
    tessel.yield %s : !tessel.tensor<[n:4], f32>
  }
  return %r : !tessel.tensor<[n:4], f32>
}
