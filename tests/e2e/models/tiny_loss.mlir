// A loss too small for f16's gradients: 2^-24 times the mean squared error
// of x . w against 1. In f16 the backward pass starts from 2^-24 (f16's
// smallest subnormal) and the mean's gradient, 2^-24 / 4, rounds to 0, so
// without loss scaling every gradient is 0 and w never moves.
// tests/e2e/loss_scaling.sh trains it in f32 and in f16 with and without
// dynamic loss scaling (which starts the backward pass from 2^-9 instead).

!x = !tessel.tensor<[batch:4, k:2], f32>
!w = !tessel.tensor<[k:2], f32>
!batch = !tessel.tensor<[batch:4], f32>
!scalar = !tessel.tensor<[], f32>

func.func @forward(%x: !x {tessel.name = "x"}) -> !scalar {
  %w = tessel.parameter "w" zeros scale 1.0 seed 0 : !w
  %prediction = tessel.einsum %x, %w : (!x, !w) -> !batch
  %one = tessel.constant 1.0 : f32 -> !scalar
  %error = tessel.sub %prediction, %one : !batch, !scalar -> !batch
  %squared = tessel.mul %error, %error : !batch, !batch -> !batch
  %mse = tessel.reduce mean %squared : !batch -> !scalar
  %tiny = tessel.constant 5.9604644775390625e-08 : f32 -> !scalar
  %loss = tessel.mul %mse, %tiny : !scalar, !scalar -> !scalar
  return %loss : !scalar
}
