// RUN: tessel-opt %s -split-input-file -verify-diagnostics --tessel-inline-layers

// One name is one weight: declarations that disagree are an error at the
// second, with a note at the first.
!v = !tessel.tensor<[d:2], f32>
func.func private @a(%x: !v) -> !v {
  // expected-note @+1 {{parameter 'shared' is first declared here}}
  %w = tessel.parameter "shared" normal scale 0.5 seed 1 : !v
  %y = tessel.mul %x, %w : !v, !v -> !v
  return %y : !v
}
func.func private @b(%x: !v) -> !v {
  // expected-error @+1 {{parameter 'shared' of function 'forward' is declared twice with different initializers (normal and uniform), scales (0.5 and 0.25), seeds (1 and 2): one name is one shared weight}}
  %w = tessel.parameter "shared" uniform scale 0.25 seed 2 : !v
  %y = tessel.mul %x, %w : !v, !v -> !v
  return %y : !v
}
func.func @forward(%x: !v) -> !v {
  %a = func.call @a(%x) : (!v) -> !v
  %b = func.call @b(%a) : (!v) -> !v
  return %b : !v
}

// -----

// A type mismatch, within one function and without any call.
func.func @forward(%x: !tessel.tensor<[d:2], f32>) -> !tessel.tensor<[d:2], f32> {
  // expected-note @+1 {{first declared here}}
  %w = tessel.parameter "w" zeros scale 1.0 seed 0 : !tessel.tensor<[d:2], f32>
  // expected-error @+1 {{parameter 'w' of function 'forward' is declared twice with different types ('!tessel.tensor<[d:2], f32>' and '!tessel.tensor<[e:2], f32>')}}
  %v = tessel.parameter "w" zeros scale 1.0 seed 0 : !tessel.tensor<[e:2], f32>
  return %w : !tessel.tensor<[d:2], f32>
}

// -----

// A trained weight and a buffer (running statistics) of one name are not one
// tensor.
func.func @forward(%x: !tessel.tensor<[d:2], f32>) -> !tessel.tensor<[d:2], f32> {
  // expected-note @+1 {{first declared here}}
  %w = tessel.parameter "w" zeros scale 1.0 seed 0 : !tessel.tensor<[d:2], f32>
  // expected-error @+1 {{parameter 'w' of function 'forward' is declared twice with different kinds (trained weight and buffer)}}
  %v = tessel.parameter "w" zeros scale 1.0 seed 0 buffer : !tessel.tensor<[d:2], f32>
  return %w : !tessel.tensor<[d:2], f32>
}

// -----

// Recursion cannot be inlined: the cycle is named.
!v = !tessel.tensor<[d:2], f32>
func.func @forward(%x: !v) -> !v {
  %y = func.call @ping(%x) : (!v) -> !v
  return %y : !v
}
func.func private @ping(%x: !v) -> !v {
  %y = func.call @pong(%x) : (!v) -> !v
  return %y : !v
}
func.func private @pong(%x: !v) -> !v {
  // expected-error @+1 {{function 'pong' calls @ping, which makes a call cycle (@ping -> @pong -> @ping): a layer function cannot call itself}}
  %y = func.call @ping(%x) : (!v) -> !v
  return %y : !v
}

// -----

!v = !tessel.tensor<[d:2], f32>
func.func @self(%x: !v) -> !v {
  // expected-error @+1 {{function 'self' calls @self, which makes a call cycle (@self -> @self)}}
  %y = func.call @self(%x) : (!v) -> !v
  return %y : !v
}

// -----

// A layer of more than one block.
!v = !tessel.tensor<[d:2], f32>
// expected-note @+1 {{@branchy is defined here}}
func.func private @branchy(%x: !v) -> !v {
  llvm.br ^next
^next:
  return %x : !v
}
func.func @forward(%x: !v) -> !v {
  // expected-error @+1 {{function 'forward' calls @branchy, which has 2 blocks: only a layer function of one block can be inlined}}
  %y = func.call @branchy(%x) : (!v) -> !v
  return %y : !v
}

// -----

// A declaration without a body.
!v = !tessel.tensor<[d:2], f32>
// expected-note @+1 {{@external is declared here}}
func.func private @external(%x: !v) -> !v
func.func @forward(%x: !v) -> !v {
  // expected-error @+1 {{function 'forward' calls @external, which has no body to inline}}
  %y = func.call @external(%x) : (!v) -> !v
  return %y : !v
}
