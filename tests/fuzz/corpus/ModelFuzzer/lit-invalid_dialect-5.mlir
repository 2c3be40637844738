func.func @unknown_op(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{custom op 'tessel.frobnicate' is unknown}}
  %y = tessel.frobnicate %x : !tessel.tensor<[batch:4], f32>
  return
}
