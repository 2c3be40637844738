// RUN: tessel-opt %s -split-input-file -verify-diagnostics --tessel-resize-dims="batch-size=32"

// A reshape that merges the batch into a dimension further in: `tokens`
// interleaves the examples with `seq`, so no new size per name keeps them
// apart (sizes=seq=4,batch=32,tokens=128 gives each size by name).
func.func @inner(%x: !tessel.tensor<[seq:4, batch:8, d:3], f32>) -> !tessel.tensor<[seq:4, batch:8, d:3], f32> {
  // expected-error @+1 {{tessel-resize-dims: the new batch size cannot resize the batch 'batch' through this reshape: it turns ['seq:4', 'batch:8'] into ['tokens:32'], so 'batch', which holds the batch, is not the outermost dimension of its group: its examples would be interleaved with 'seq' (a reshape may merge the batch with the dimensions inside it, or split such a merge back; reshape the other dimensions only, or give each dimension its size by name)}}
  %t = tessel.reshape %x : !tessel.tensor<[seq:4, batch:8, d:3], f32> -> !tessel.tensor<[tokens:32, d:3], f32>
  %y = tessel.tanh %t : !tessel.tensor<[tokens:32, d:3], f32>
  %r = tessel.reshape %y : !tessel.tensor<[tokens:32, d:3], f32> -> !tessel.tensor<[seq:4, batch:8, d:3], f32>
  return %r : !tessel.tensor<[seq:4, batch:8, d:3], f32>
}

// -----

// A reshape that splits the batch itself: `pairs` would hold half an
// example's elements.
func.func @split(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  // expected-error @+1 {{it turns ['batch:8'] into ['pairs:4', 'pair:2'], so 'batch', which holds the batch, would be split: an example is 1 element here, not a whole number of rows of 'pairs' (2 elements each)}}
  %p = tessel.reshape %x : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[pairs:4, pair:2, d:3], f32>
  %r = tessel.reshape %p : !tessel.tensor<[pairs:4, pair:2, d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  return %r : !tessel.tensor<[batch:8, d:3], f32>
}

// -----

// One name for the batch merged with 3 elements of each example in one
// reshape and with 4 in another: its new size would be two sizes.
func.func @factors(%x: !tessel.tensor<[batch:8, d:3], f32>, %z: !tessel.tensor<[batch:8, seq:4], f32>) -> !tessel.tensor<[tokens:32], f32> {
  %t = tessel.reshape %x : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[tokens:24], f32>
  // expected-error @+1 {{tessel-resize-dims: dimension 'tokens' holds the batch 'batch' times 4 here (its size is 4 x the batch's) but times 3 elsewhere; the new batch size cannot resize it}}
  %u = tessel.reshape %z : !tessel.tensor<[batch:8, seq:4], f32> -> !tessel.tensor<[tokens:32], f32>
  return %u : !tessel.tensor<[tokens:32], f32>
}

// -----

// A merged name that has another size in a tensor no reshape ties.
func.func @merged(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[tokens:24], f32> {
  %t = tessel.reshape %x : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[tokens:24], f32>
  // expected-error @+1 {{tessel-resize-dims: dimension 'tokens' holds the batch 'batch' merged with 3 elements of each example (a reshape gives it the batch's elements), so its size is 3 x the batch's 8 = 24, but it has size 12 here; the new batch size cannot resize it}}
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[tokens:12], f32>
  return %t : !tessel.tensor<[tokens:24], f32>
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
