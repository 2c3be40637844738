// Mesh-level ops need a mesh on an enclosing module.
func.func @no_mesh(%x: !tessel.tensor<[batch:16, hidden:256], f32>)
    -> !tessel.tensor<[batch:16, hidden:256], f32> {
  // expected-error @+1 {{'tessel.all_reduce' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %s = tessel.all_reduce sum %x over ["model"] : !tessel.tensor<[batch:16, hidden:256], f32>
  return %s : !tessel.tensor<[batch:16, hidden:256], f32>
}
