// Two layers that declare one weight ("emb") with different scales.
!v = !tessel.tensor<[batch:4, d:2], f32>
!w = !tessel.tensor<[d:2], f32>
func.func private @embed(%x: !v) -> !v {
  %e = tessel.parameter "emb" normal scale 0.5 seed 1 : !w
  %y = tessel.mul %x, %e : !v, !w -> !v
  return %y : !v
}
func.func private @unembed(%x: !v) -> !v {
  %e = tessel.parameter "emb" normal scale 0.1 seed 1 : !w
  %y = tessel.mul %x, %e : !v, !w -> !v
  return %y : !v
}
func.func @forward(%x: !v {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %a = func.call @embed(%x) : (!v) -> !v
  %b = func.call @unembed(%a) : (!v) -> !v
  %l = tessel.reduce sum %b : !v -> !tessel.tensor<[], f32>
  return %l : !tessel.tensor<[], f32>
}
