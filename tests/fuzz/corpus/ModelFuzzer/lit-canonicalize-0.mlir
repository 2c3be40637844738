// The folders: cast, rename, reshape and transpose to their own type fold
// away; constants fold (identical constants are merged, dead ones erased).

func.func @identity_casts(%x: !tessel.tensor<[batch:4, hidden:8], f32>)
    -> (!tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[batch:4, hidden:8], f32>,
        !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[batch:4, hidden:8], f32>) {
  %c = tessel.cast %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
  %s = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
  %t = tessel.transpose %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
  return %c, %r, %s, %t : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[batch:4, hidden:8], f32>,
      !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[batch:4, hidden:8], f32>
}
