func.func @f(%x: !tessel.tensor<[k:2], f32>) {
  return
}
