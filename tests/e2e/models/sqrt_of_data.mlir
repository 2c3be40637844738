// A model whose gradient is not finite while its loss is: the mean of
// sqrt(x * w). Where x is 0, sqrt's derivative 0.5 / sqrt(x * w) is
// infinite and w's gradient (that times x) NaN, but the loss only adds
// sqrt(0) = 0. tests/e2e/nonfinite.sh trains it on data with one such
// example, to check that the driver stops (or skips) the steps whose
// gradient norm is NaN before their update reaches w.

!x = !tessel.tensor<[batch:4, k:2], f32>
!w = !tessel.tensor<[k:2], f32>
!scalar = !tessel.tensor<[], f32>

func.func @forward(%x: !x {tessel.name = "x"}) -> !scalar {
  %w = tessel.parameter "w" ones scale 1.0 seed 0 : !w
  %xw = tessel.mul %x, %w : !x, !w -> !x
  %root = tessel.sqrt %xw : !x
  %loss = tessel.reduce mean %root : !x -> !scalar
  return %loss : !scalar
}
