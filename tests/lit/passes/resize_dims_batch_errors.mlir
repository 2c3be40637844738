// RUN: tessel-opt %s -split-input-file -verify-diagnostics --tessel-resize-dims="batch-size=32"

// A reshape that merges the batch with another dimension: the merged
// dimension's new size is not the batch's, so batch-size cannot follow it
// (sizes=batch=32,tokens=96 can).
func.func @flat(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  // expected-error @+1 {{tessel-resize-dims: the new batch size cannot resize the batch 'batch' through this reshape: it turns ['batch:8', 'd:3'] into ['tokens:24'], so 'batch', which holds the batch, is not a dimension of its own on both sides (reshape the other dimensions only, or give each dimension its size by name)}}
  %t = tessel.reshape %x : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[tokens:24], f32>
  %y = tessel.tanh %t : !tessel.tensor<[tokens:24], f32>
  %r = tessel.reshape %y : !tessel.tensor<[tokens:24], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  return %r : !tessel.tensor<[batch:8, d:3], f32>
}

// -----

// A name that holds the batch in one place and other elements in another.
func.func @mixed(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %g = tessel.rename %x : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[group:8, d:3], f32>
  // expected-error @+1 {{tessel-resize-dims: dimension 'group' holds the batch 'batch' (a reshape or rename gives it the batch's elements) but has size 4 here, not the batch's 8; the new batch size cannot resize it}}
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[group:4, d:3], f32>
  %r = tessel.rename %g : !tessel.tensor<[group:8, d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  return %r : !tessel.tensor<[batch:8, d:3], f32>
}
