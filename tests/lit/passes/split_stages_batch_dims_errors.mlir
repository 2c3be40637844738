// RUN: tessel-opt %s -split-input-file -verify-diagnostics --tessel-split-stages=layout-file=%S/Inputs/pipeline2.yaml

// A reshape that merges the batch into a dimension further in: `tokens`
// interleaves the examples with `seq`, so a micro-batch would be no block
// of it. (Merged outermost, [batch, seq] -> tokens, `tokens` is cut with
// the batch: split_stages_batch_dims_merged.mlir.)
func.func private @inner(%x: !tessel.tensor<[seq:2, batch:8, d:3], f32>) -> !tessel.tensor<[seq:2, batch:8, d:3], f32> {
  // expected-error @+1 {{pipeline: micro-batches cannot cut the batch 'batch' through this reshape: it turns ['seq:2', 'batch:8'] into ['tokens:16'], so 'batch', which holds the batch, is not the outermost dimension of its group: its examples would be interleaved with 'seq'}}
  %t = tessel.reshape %x : !tessel.tensor<[seq:2, batch:8, d:3], f32> -> !tessel.tensor<[tokens:16, d:3], f32>
  %y = tessel.tanh %t : !tessel.tensor<[tokens:16, d:3], f32>
  %r = tessel.reshape %y : !tessel.tensor<[tokens:16, d:3], f32> -> !tessel.tensor<[seq:2, batch:8, d:3], f32>
  return %r : !tessel.tensor<[seq:2, batch:8, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[seq:2, batch:8, d:3], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %h0 = func.call @inner(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[seq:2, batch:8, d:3], f32>) -> !tessel.tensor<[seq:2, batch:8, d:3], f32>
  %h1 = func.call @inner(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[seq:2, batch:8, d:3], f32>) -> !tessel.tensor<[seq:2, batch:8, d:3], f32>
  %loss = tessel.reduce mean %h1 : !tessel.tensor<[seq:2, batch:8, d:3], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}

// -----

// A reshape that splits the batch, seen from the other side: `group`,
// which the first reshape ties to the batch, is split into two dims on the
// way back.
func.func private @split(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %g = tessel.reshape %x : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[group:8, d:3], f32>
  // expected-error @+1 {{it turns ['group:8'] into ['pairs:4', 'pair:2'], so 'group', which holds the batch, would be split: an example is 1 element here, not a whole number of rows of 'pairs' (2 elements each)}}
  %p = tessel.reshape %g : !tessel.tensor<[group:8, d:3], f32> -> !tessel.tensor<[pairs:4, pair:2, d:3], f32>
  %r = tessel.reshape %p : !tessel.tensor<[pairs:4, pair:2, d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  return %r : !tessel.tensor<[batch:8, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %h0 = func.call @split(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h1 = func.call @split(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %loss = tessel.reduce mean %h1 : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}

// -----

// A name that holds the batch in one place and other elements in another:
// resizing it everywhere would change what the second means.
func.func private @mixed(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %g = tessel.rename %x : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[group:8, d:3], f32>
  // expected-error @+1 {{pipeline: dimension 'group' holds the batch 'batch' (a reshape or rename gives it the batch's elements) but has size 4 here, not the batch's 8; micro-batches cannot resize it}}
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[group:4, d:3], f32>
  %r = tessel.rename %g : !tessel.tensor<[group:8, d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  return %r : !tessel.tensor<[batch:8, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %h0 = func.call @mixed(%x) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h1 = func.call @mixed(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %loss = tessel.reduce mean %h1 : !tessel.tensor<[batch:8, d:3], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
