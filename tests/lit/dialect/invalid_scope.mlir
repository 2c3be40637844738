// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// tessel.scope belongs on a func.call of a layer function, nowhere else.
func.func @f(%x: !tessel.tensor<[d:2], f32>) -> !tessel.tensor<[d:2], f32> {
  // expected-error @+1 {{'tessel.scope' may only be attached to a func.call (it scopes the names of the layer function the call inlines), not to 'tessel.relu'}}
  %y = tessel.relu %x {tessel.scope = "block0"} : !tessel.tensor<[d:2], f32>
  return %y : !tessel.tensor<[d:2], f32>
}

// -----

// expected-error @+1 {{'tessel.scope' may only be attached to a func.call (it scopes the names of the layer function the call inlines), not to 'func.func'}}
func.func @g(%x: !tessel.tensor<[d:2], f32>) -> !tessel.tensor<[d:2], f32> attributes {tessel.scope = "g"} {
  return %x : !tessel.tensor<[d:2], f32>
}

// -----

func.func private @layer(%x: !tessel.tensor<[d:2], f32>) -> !tessel.tensor<[d:2], f32>
func.func @h(%x: !tessel.tensor<[d:2], f32>) -> !tessel.tensor<[d:2], f32> {
  // expected-error @+1 {{'tessel.scope' must be a non-empty string}}
  %y = func.call @layer(%x) {tessel.scope = ""} : (!tessel.tensor<[d:2], f32>) -> !tessel.tensor<[d:2], f32>
  return %y : !tessel.tensor<[d:2], f32>
}

// -----

func.func private @layer(%x: !tessel.tensor<[d:2], f32>) -> !tessel.tensor<[d:2], f32>
func.func @h(%x: !tessel.tensor<[d:2], f32>) -> !tessel.tensor<[d:2], f32> {
  // expected-error @+1 {{'tessel.scope' must be a non-empty string}}
  %y = func.call @layer(%x) {tessel.scope = 3 : i64} : (!tessel.tensor<[d:2], f32>) -> !tessel.tensor<[d:2], f32>
  return %y : !tessel.tensor<[d:2], f32>
}
