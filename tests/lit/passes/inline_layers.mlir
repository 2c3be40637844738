// RUN: tessel-opt %s -split-input-file --tessel-inline-layers | FileCheck %s

// A layer function called twice with two scopes: each call inlines its own
// copy, the parameter names and the named results get "<scope>.", and the
// private layer is erased once nothing calls it.

// CHECK-NOT: func.func private @dense
// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %[[X:.*]]: !tessel.tensor<[batch:4, k:3], f32>
// CHECK-NOT: func.call
// The scope is mixed into the seed: the two copies start from different values.
// CHECK: %[[W0:.*]] = tessel.parameter "layer0.w" normal scale 1.000000e-01 seed 1892061400119791814 : !tessel.tensor<[k:3, n:3], f32>
// CHECK: %[[Y0:.*]] = tessel.einsum %[[X]], %[[W0]] {tessel.name = "layer0.y"}
// CHECK: %[[W1:.*]] = tessel.parameter "layer1.w" normal scale 1.000000e-01 seed 3532324788891343670 : !tessel.tensor<[k:3, n:3], f32>
// CHECK: %[[Y1:.*]] = tessel.einsum %{{.*}}, %[[W1]] {tessel.name = "layer1.y"}
// CHECK: tessel.reduce sum %[[Y1]]
// CHECK-NOT: func.func private @dense
func.func private @dense(%x: !tessel.tensor<[batch:4, k:3], f32>)
    -> !tessel.tensor<[batch:4, n:3], f32> {
  %w = tessel.parameter "w" normal scale 0.1 seed 1 : !tessel.tensor<[k:3, n:3], f32>
  %y = tessel.einsum %x, %w {tessel.name = "y"}
      : (!tessel.tensor<[batch:4, k:3], f32>, !tessel.tensor<[k:3, n:3], f32>)
      -> !tessel.tensor<[batch:4, n:3], f32>
  return %y : !tessel.tensor<[batch:4, n:3], f32>
}
func.func @forward(%x: !tessel.tensor<[batch:4, k:3], f32>) -> !tessel.tensor<[], f32> {
  %h = func.call @dense(%x) {tessel.scope = "layer0"}
      : (!tessel.tensor<[batch:4, k:3], f32>) -> !tessel.tensor<[batch:4, n:3], f32>
  %r = tessel.rename %h : !tessel.tensor<[batch:4, n:3], f32> -> !tessel.tensor<[batch:4, k:3], f32>
  %o = func.call @dense(%r) {tessel.scope = "layer1"}
      : (!tessel.tensor<[batch:4, k:3], f32>) -> !tessel.tensor<[batch:4, n:3], f32>
  %l = tessel.reduce sum %o : !tessel.tensor<[batch:4, n:3], f32> -> !tessel.tensor<[], f32>
  return %l : !tessel.tensor<[], f32>
}

// -----

// Nested scopes compose: @block (scope "block0") calls @attention (scope
// "attn") and @norm without a scope; a public layer stays, with its own
// calls inlined, and so does a public function nobody calls.

// CHECK-LABEL: func.func @attention(
// CHECK-NEXT: tessel.parameter "wq"
// CHECK-LABEL: func.func @block(
// CHECK-NOT: func.call
// CHECK: tessel.parameter "attn.wq"
// CHECK: tessel.mul {{.*}} {tessel.name = "attn.scores"}
// CHECK: tessel.parameter "gain"
// CHECK-LABEL: func.func @unused(
// CHECK-LABEL: func.func @model(
// CHECK-NOT: func.call
// CHECK: tessel.parameter "block0.attn.wq"
// CHECK: {tessel.name = "block0.attn.scores"}
// CHECK: tessel.parameter "block0.gain"
// CHECK: tessel.parameter "block1.attn.wq"
// CHECK: {tessel.name = "block1.attn.scores"}
// CHECK: tessel.parameter "block1.gain"
// CHECK-NOT: @norm
!v = !tessel.tensor<[d:2], f32>
func.func @attention(%x: !v) -> !v {
  %wq = tessel.parameter "wq" normal scale 1.0 seed 1 : !v
  %s = tessel.mul %x, %wq {tessel.name = "scores"} : !v, !v -> !v
  return %s : !v
}
func.func private @norm(%x: !v) -> !v {
  %g = tessel.parameter "gain" ones scale 1.0 seed 0 : !v
  %y = tessel.mul %x, %g : !v, !v -> !v
  return %y : !v
}
func.func @block(%x: !v) -> !v {
  %a = func.call @attention(%x) {tessel.scope = "attn"} : (!v) -> !v
  %n = func.call @norm(%a) : (!v) -> !v
  return %n : !v
}
func.func @unused(%x: !v) -> !v {
  return %x : !v
}
func.func @model(%x: !v) -> !v {
  %b0 = func.call @block(%x) {tessel.scope = "block0"} : (!v) -> !v
  %b1 = func.call @block(%b0) {tessel.scope = "block1"} : (!v) -> !v
  return %b1 : !v
}

// -----

// Without a scope the names stay, so a layer called twice without one
// declares one weight twice: the declarations become one shared parameter.
// A layer that returns its argument passes the call's operand through.

// CHECK-LABEL: func.func @tied(
// CHECK-SAME: %[[X:[^:]*]]:
// CHECK: %[[E:.*]] = tessel.parameter "embedding" normal scale 5.000000e-01 seed 3
// CHECK-NOT: tessel.parameter
// CHECK: %[[A:.*]] = tessel.mul %[[X]], %[[E]]
// CHECK: %[[B:.*]] = tessel.mul %[[A]], %[[E]]
// CHECK: %[[C:.*]] = tessel.add %[[B]], %[[X]]
// CHECK: return %[[C]]
!v = !tessel.tensor<[d:2], f32>
func.func private @scale(%x: !v) -> !v {
  %e = tessel.parameter "embedding" normal scale 0.5 seed 3 : !v
  %y = tessel.mul %x, %e : !v, !v -> !v
  return %y : !v
}
func.func private @identity(%x: !v) -> !v {
  return %x : !v
}
func.func @tied(%x: !v) -> !v {
  %a = func.call @scale(%x) : (!v) -> !v
  %b = func.call @scale(%a) : (!v) -> !v
  %i = func.call @identity(%x) : (!v) -> !v
  %c = tessel.add %b, %i : !v, !v -> !v
  return %c : !v
}

// -----

// A name on the call names the call's result: it moves to the inlined op
// that computes it, where a layout's overrides find it.
func.func private @head(%x: !tessel.tensor<[batch:4, k:3], f32>)
    -> !tessel.tensor<[batch:4, n:2], f32> {
  %w = tessel.parameter "w" normal scale 0.1 seed 1
      : !tessel.tensor<[k:3, n:2], f32>
  %y = tessel.einsum %x, %w
      : (!tessel.tensor<[batch:4, k:3], f32>, !tessel.tensor<[k:3, n:2], f32>)
      -> !tessel.tensor<[batch:4, n:2], f32>
  return %y : !tessel.tensor<[batch:4, n:2], f32>
}

// CHECK-LABEL: func.func @named_call(
// CHECK: tessel.parameter "out.w"
// CHECK: tessel.einsum %{{.*}}, %{{.*}} {tessel.name = "logits"}
func.func @named_call(%x: !tessel.tensor<[batch:4, k:3], f32>)
    -> !tessel.tensor<[batch:4, n:2], f32> {
  %y = func.call @head(%x) {tessel.scope = "out", tessel.name = "logits"}
      : (!tessel.tensor<[batch:4, k:3], f32>) -> !tessel.tensor<[batch:4, n:2], f32>
  return %y : !tessel.tensor<[batch:4, n:2], f32>
}
