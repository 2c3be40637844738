func.func @rename_rank(%x: !tessel.tensor<[batch:4, hidden:8], f32>) {
  // expected-error @+1 {{'tessel.rename' op rename keeps the rank and every size, position by position}}
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[rows:32], f32>
  return
}
