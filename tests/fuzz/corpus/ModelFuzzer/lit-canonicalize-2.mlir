// Ops that change the type stay.
func.func @real_changes(%x: !tessel.tensor<[batch:4, hidden:8], f32>)
    -> (!tessel.tensor<[batch:4, hidden:8], bf16>, !tessel.tensor<[batch:4, features:8], f32>,
        !tessel.tensor<[n:32], f32>, !tessel.tensor<[hidden:8, batch:4], f32>) {
  %c = tessel.cast %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], bf16>
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, features:8], f32>
  %s = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[n:32], f32>
  %t = tessel.transpose %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  return %c, %r, %s, %t : !tessel.tensor<[batch:4, hidden:8], bf16>, !tessel.tensor<[batch:4, features:8], f32>,
      !tessel.tensor<[n:32], f32>, !tessel.tensor<[hidden:8, batch:4], f32>
}
