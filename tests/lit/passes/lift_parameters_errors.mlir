// RUN: tessel-opt %s -split-input-file -verify-diagnostics --tessel-lift-parameters

// One checkpoint tensor feeds every function that takes a parameter, so
// its type must agree.
// expected-note @+1 {{@forward declares it here}}
func.func @forward(%x: !tessel.tensor<[n:4], f32>) -> !tessel.tensor<[], f32> {
  %w = tessel.parameter "w" normal scale 0.1 seed 1 : !tessel.tensor<[n:4], f32>
  %y = tessel.mul %x, %w : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32> -> !tessel.tensor<[n:4], f32>
  %l = tessel.reduce sum %y : !tessel.tensor<[n:4], f32> -> !tessel.tensor<[], f32>
  return %l : !tessel.tensor<[], f32>
}
// expected-error @+1 {{parameter 'w' is '!tessel.tensor<[m:4], f32>' in @predict but '!tessel.tensor<[n:4], f32>' in @forward: one checkpoint tensor cannot feed both}}
func.func @predict() -> !tessel.tensor<[m:4], f32> {
  %w = tessel.parameter "w" normal scale 0.1 seed 1 : !tessel.tensor<[m:4], f32>
  return %w : !tessel.tensor<[m:4], f32>
}

// -----

// expected-error @+1 {{tessel-lift-parameters: the module already has a 'train_step'}}
func.func @train_step() {
  return
}

// -----

func.func private @layer(%x: !tessel.tensor<[n:4], f32>) -> !tessel.tensor<[n:4], f32> {
  return %x : !tessel.tensor<[n:4], f32>
}
func.func @predict(%x: !tessel.tensor<[n:4], f32>) -> !tessel.tensor<[n:4], f32> {
  // expected-error @+1 {{function 'predict' calls @layer: run tessel-inline-layers before tessel-lift-parameters}}
  %y = func.call @layer(%x) : (!tessel.tensor<[n:4], f32>) -> !tessel.tensor<[n:4], f32>
  return %y : !tessel.tensor<[n:4], f32>
}

// -----

// An argument with a role is read from the checkpoint by its name.
// expected-error @+1 {{argument 0 of 'predict' has a tessel.role but no tessel.name string}}
func.func @predict(%w: !tessel.tensor<[n:4], f32> {tessel.role = "parameter"}) -> !tessel.tensor<[n:4], f32> {
  return %w : !tessel.tensor<[n:4], f32>
}
