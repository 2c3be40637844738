// tessel-autodiff's errors about buffers: updated twice, and a model whose
// only tensors to carry are buffers (nothing to train).
// RUN: tessel-opt %s -split-input-file -verify-diagnostics --tessel-autodiff

!c = !tessel.tensor<[c:2], f32>
!s = !tessel.tensor<[], f32>

func.func @forward(%x: !c) -> !s {
  %w = tessel.parameter "w" ones scale 1.0 seed 0 : !c
  %rm = tessel.parameter "rm" zeros scale 1.0 seed 0 buffer : !c
  %a = tessel.update_buffer %rm, %x : !c
  // expected-error @+1 {{'tessel.update_buffer' op updates buffer 'rm' a second time}}
  %b = tessel.update_buffer %rm, %x : !c
  %y = tessel.mul %x, %w : !c, !c -> !c
  %l = tessel.reduce sum %y : !c -> !s
  return %l : !s
}

// -----

!c = !tessel.tensor<[c:2], f32>
!s = !tessel.tensor<[], f32>

// expected-error @+1 {{function 'forward' declares no tessel.parameter to train}}
func.func @forward(%x: !c) -> !s {
  %rm = tessel.parameter "rm" zeros scale 1.0 seed 0 buffer : !c
  %a = tessel.update_buffer %rm, %x : !c
  %l = tessel.reduce sum %x : !c -> !s
  return %l : !s
}
