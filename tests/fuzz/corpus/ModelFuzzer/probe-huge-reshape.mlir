func.func @f(%x: !tessel.tensor<[batch:4294967296, hidden:4294967296], f32>) -> !tessel.tensor<[n:2], f32> {
  %s = tessel.reshape %x : !tessel.tensor<[batch:4294967296, hidden:4294967296], f32> -> !tessel.tensor<[n:2], f32>
  return %s : !tessel.tensor<[n:2], f32>
}
