// Layers as functions, for the differential sweep: one residual block
// function called twice with two scopes ("block0", "block1"), each with
// its own output weight and, through a nested call of @activation (scope
// "act"), its own bias ("block0.act.bias", "block1.act.bias"). Two ways of
// sharing a weight: the input projection "proj" is passed to both blocks
// as an argument, and the head declares a parameter of the same name as
// @forward's "proj" (a tied embedding: one weight, its gradient the sum of
// its three uses). @evaluate calls the same layers as @forward. Every tool
// inlines the calls first (tessel-inline-layers); the layouts split the
// batch, the hidden dimension, and the scoped activations by name.
!x = !tessel.tensor<[batch:8, feat:6], f32>
!h = !tessel.tensor<[batch:8, hid:4], f32>
!proj = !tessel.tensor<[feat:6, hid:4], f32>
!scalar = !tessel.tensor<[], f32>

// tanh(h + bias), the result named "hidden" (in its caller's scope).
func.func private @activation(%h: !h) -> !h {
  %bias = tessel.parameter "bias" normal scale 0.3 seed 4
      : !tessel.tensor<[hid:4], f32>
  %z = tessel.add %h, %bias : !h, !tessel.tensor<[hid:4], f32> -> !h
  %t = tessel.tanh %z {tessel.name = "hidden"} : !h
  return %t : !h
}

// x + act(x . proj) . w_out: "proj" comes from the caller, "w_out" and the
// activation's bias belong to the block's scope.
func.func private @block(%x: !x, %proj: !proj) -> !x {
  %w_out = tessel.parameter "w_out" normal scale 0.4 seed 3
      : !tessel.tensor<[hid:4, feat:6], f32>
  %h = tessel.einsum %x, %proj : (!x, !proj) -> !h
  %a = func.call @activation(%h) {tessel.scope = "act"} : (!h) -> !h
  %y = tessel.einsum %a, %w_out
      : (!h, !tessel.tensor<[hid:4, feat:6], f32>) -> !x
  %r = tessel.add %x, %y : !x, !x -> !x
  return %r : !x
}

// Logits over the 4 classes of `hid`, with the projection tied by name.
func.func private @head(%x: !x) -> !h {
  %proj = tessel.parameter "proj" normal scale 0.5 seed 1 : !proj
  %logits = tessel.einsum %x, %proj {tessel.name = "logits"}
      : (!x, !proj) -> !h
  return %logits : !h
}

func.func private @trunk(%x: !x) -> !h {
  %proj = tessel.parameter "proj" normal scale 0.5 seed 1 : !proj
  %b0 = func.call @block(%x, %proj) {tessel.scope = "block0"}
      : (!x, !proj) -> !x
  %b1 = func.call @block(%b0, %proj) {tessel.scope = "block1"}
      : (!x, !proj) -> !x
  %logits = func.call @head(%b1) : (!x) -> !h
  return %logits : !h
}

func.func @forward(%x: !x {tessel.name = "x"},
                   %labels: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"})
    -> !scalar {
  %logits = func.call @trunk(%x) : (!x) -> !h
  %losses = tessel.softmax_cross_entropy %logits, %labels over "hid"
      : !h, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:8], f32> -> !scalar
  return %loss : !scalar
}

func.func @evaluate(%x: !x {tessel.name = "x"},
                    %labels: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"})
    -> (!scalar {tessel.name = "loss"}, !scalar {tessel.name = "correct"}) {
  %logits = func.call @trunk(%x) : (!x) -> !h
  %losses = tessel.softmax_cross_entropy %logits, %labels over "hid"
      : !h, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:8], f32> -> !scalar
  %best = tessel.reduce max %logits : !h -> !tessel.tensor<[batch:8], f32>
  %is_best = tessel.compare ge, %logits, %best
      : !h, !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[batch:8, hid:4], i1>
  %target = tessel.one_hot %labels as "hid"
      : !tessel.tensor<[batch:8], i32> -> !h
  %zero = tessel.constant 0.0 : f32 -> !scalar
  %hits = tessel.select %is_best, %target, %zero
      : !tessel.tensor<[batch:8, hid:4], i1>, !h, !scalar -> !h
  %correct = tessel.reduce sum %hits : !h -> !scalar
  return %loss, %correct : !scalar, !scalar
}
