// RUN: tessel-opt %s -split-input-file -verify-diagnostics --tessel-autodiff

// expected-error @+1 {{tessel-autodiff: no function 'forward' to differentiate}}
module {
  func.func @loss() -> !tessel.tensor<[], f32> {
    %c = tessel.constant 1.0 : f32 -> !tessel.tensor<[], f32>
    return %c : !tessel.tensor<[], f32>
  }
}

// -----

// expected-error @+1 {{function 'forward' must return a scalar float loss, not '!tessel.tensor<[batch:2], f32>'}}
func.func @forward(%x: !tessel.tensor<[batch:2], f32>) -> !tessel.tensor<[batch:2], f32> {
  %w = tessel.parameter "w" ones scale 1.0 seed 0 : !tessel.tensor<[batch:2], f32>
  %y = tessel.mul %x, %w : !tessel.tensor<[batch:2], f32>, !tessel.tensor<[batch:2], f32>
      -> !tessel.tensor<[batch:2], f32>
  return %y : !tessel.tensor<[batch:2], f32>
}

// -----

// expected-error @+1 {{function 'forward' declares no tessel.parameter to train}}
func.func @forward(%x: !tessel.tensor<[batch:2], f32>) -> !tessel.tensor<[], f32> {
  %l = tessel.reduce sum %x : !tessel.tensor<[batch:2], f32> -> !tessel.tensor<[], f32>
  return %l : !tessel.tensor<[], f32>
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  // expected-error @+1 {{function 'forward' already has layouts: differentiate before tessel-apply-layout}}
  func.func @forward(%x: !tessel.tensor<[batch:2], f32, #tessel.layout<{batch = [data]}>>)
      -> !tessel.tensor<[], f32> {
    %w = tessel.parameter "w" ones scale 1.0 seed 0 : !tessel.tensor<[batch:2], f32>
    %y = tessel.einsum %x, %w : (!tessel.tensor<[batch:2], f32, #tessel.layout<{batch = [data]}>>,
        !tessel.tensor<[batch:2], f32>) -> !tessel.tensor<[], f32>
    return %y : !tessel.tensor<[], f32>
  }
}

// -----

// Mesh-level ops belong to partitioned programs, which are not
// differentiated.
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @forward(%x: !tessel.tensor<[batch:2], f32>) -> !tessel.tensor<[], f32> {
    %w = tessel.parameter "w" ones scale 1.0 seed 0 : !tessel.tensor<[batch:2], f32>
    %y = tessel.mul %x, %w : !tessel.tensor<[batch:2], f32>, !tessel.tensor<[batch:2], f32>
        -> !tessel.tensor<[batch:2], f32>
    // expected-error @+1 {{tessel-autodiff cannot differentiate 'tessel.all_reduce'}}
    %s = tessel.all_reduce sum %y over ["data"] : !tessel.tensor<[batch:2], f32>
    %l = tessel.reduce sum %s : !tessel.tensor<[batch:2], f32> -> !tessel.tensor<[], f32>
    return %l : !tessel.tensor<[], f32>
  }
}

// -----

// Layers are inlined before autodiff (tessel compile, explain and eval do
// it themselves); a call left in is named rather than its parameters
// missed.
!v = !tessel.tensor<[batch:2], f32>
func.func private @dense(%x: !v) -> !v {
  %w = tessel.parameter "w" ones scale 1.0 seed 0 : !v
  %y = tessel.mul %x, %w : !v, !v -> !v
  return %y : !v
}
func.func @forward(%x: !v) -> !tessel.tensor<[], f32> {
  // expected-error @+1 {{function 'forward' calls @dense: run tessel-inline-layers before tessel-autodiff}}
  %y = func.call @dense(%x) {tessel.scope = "layer0"} : (!v) -> !v
  %l = tessel.reduce sum %y : !v -> !tessel.tensor<[], f32>
  return %l : !tessel.tensor<[], f32>
}

// -----

// Two declarations of one weight that disagree.
func.func @forward(%x: !tessel.tensor<[batch:2], f32>) -> !tessel.tensor<[], f32> {
  // expected-note @+1 {{parameter 'w' is first declared here}}
  %w = tessel.parameter "w" ones scale 1.0 seed 0 : !tessel.tensor<[batch:2], f32>
  // expected-error @+1 {{parameter 'w' of function 'forward' is declared twice with different seeds (0 and 1)}}
  %v = tessel.parameter "w" ones scale 1.0 seed 1 : !tessel.tensor<[batch:2], f32>
  %y = tessel.mul %x, %w : !tessel.tensor<[batch:2], f32>, !tessel.tensor<[batch:2], f32>
      -> !tessel.tensor<[batch:2], f32>
  %z = tessel.mul %y, %v : !tessel.tensor<[batch:2], f32>, !tessel.tensor<[batch:2], f32>
      -> !tessel.tensor<[batch:2], f32>
  %l = tessel.reduce sum %z : !tessel.tensor<[batch:2], f32> -> !tessel.tensor<[], f32>
  return %l : !tessel.tensor<[], f32>
}
