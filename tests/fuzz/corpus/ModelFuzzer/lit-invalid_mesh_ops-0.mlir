// Errors of the verifiers of the mesh-level ops.

// Every mesh-level op requires a mesh on an enclosing module.
func.func @all_gather_no_mesh(%x: !tessel.tensor<[hidden:64], f32>) {
  // expected-error @+1 {{'tessel.all_gather' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %g = tessel.all_gather %x along "hidden" over ["model"] : !tessel.tensor<[hidden:64], f32> -> !tessel.tensor<[hidden:256], f32>
  return
}
