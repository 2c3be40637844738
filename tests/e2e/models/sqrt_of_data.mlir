// A model whose gradient is not finite while its loss is: the mean of
// x * w + sqrt(x * v). Where x is 0, sqrt's derivative 0.5 / sqrt(x * v)
// is infinite and v's gradient (that times 0) NaN, but the loss only adds
// sqrt(0) = 0, and w's gradient (the mean of x) stays finite.
// tests/e2e/nonfinite.sh trains it on data with one such example, to check
// that the driver stops (or skips) the steps whose gradient norm is NaN
// before their update reaches the weights. The two terms are layers, so
// that a layout may put them on two pipeline stages: the NaN is then in
// the second stage's gradients alone, and reaches the first stage's
// update only through the norm over both.

!x = !tessel.tensor<[batch:4, k:2], f32>
!w = !tessel.tensor<[k:2], f32>
!scalar = !tessel.tensor<[], f32>

func.func private @Scale(%x: !x) -> !x {
  %w = tessel.parameter "w" ones scale 1.0 seed 0 : !w
  %xw = tessel.mul %x, %w : !x, !w -> !x
  return %xw : !x
}

func.func private @Root(%h: !x, %x: !x) -> !x {
  %v = tessel.parameter "v" ones scale 1.0 seed 0 : !w
  %xv = tessel.mul %x, %v : !x, !w -> !x
  %root = tessel.sqrt %xv : !x
  %sum = tessel.add %h, %root : !x, !x -> !x
  return %sum : !x
}

func.func @forward(%x: !x {tessel.name = "x"}) -> !scalar {
  %h = call @Scale(%x) {tessel.scope = "scale"} : (!x) -> !x
  %sum = call @Root(%h, %x) {tessel.scope = "root"} : (!x, !x) -> !x
  %loss = tessel.reduce mean %sum : !x -> !scalar
  return %loss : !scalar
}
