// A chain of identities folds all the way back to the argument.
func.func @identity_chain(%x: !tessel.tensor<[k:3], f32>) -> !tessel.tensor<[k:3], f32> {
  %a = tessel.cast %x : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
  %b = tessel.transpose %a : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
  %c = tessel.rename %b : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
  %d = tessel.reshape %c : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f32>
  return %d : !tessel.tensor<[k:3], f32>
}
