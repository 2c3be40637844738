// Errors of the dialect itself: its discardable attributes and unknown ops.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{'tessel.mesh' may only be attached to a module}}
func.func private @mesh_on_function() attributes {tessel.mesh = #tessel.mesh<[data:2]>}

// -----

// expected-error @+1 {{'tessel.mesh' must be a #tessel.mesh attribute}}
module attributes {tessel.mesh = [2, 4]} {
}

// -----

// A layout is not a mesh.
// expected-error @+1 {{'tessel.mesh' must be a #tessel.mesh attribute}}
module attributes {tessel.mesh = #tessel.layout<{batch = [data]}>} {
}

// -----

// The name is currently printed with quotes ('"tessel.meshes"'), because
// the verifier streams the StringAttr rather than its value; accept both.
// expected-error-re @+1 {{unknown tessel attribute '{{"?}}tessel.meshes{{"?}}'}}
module attributes {tessel.meshes = #tessel.mesh<[data:2]>} {
}

// -----

// expected-error-re @+1 {{unknown tessel attribute '{{"?}}tessel.layout{{"?}}'}}
func.func private @unknown_on_function() attributes {tessel.layout = #tessel.layout<{batch = [data]}>}

// -----

func.func @unknown_op(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{custom op 'tessel.frobnicate' is unknown}}
  %y = tessel.frobnicate %x : !tessel.tensor<[batch:4], f32>
  return
}

// -----

func.func @unknown_generic_op(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{unregistered operation 'tessel.frobnicate' found in dialect ('tessel') that does not allow unknown operations}}
  %y = "tessel.frobnicate"(%x) : (!tessel.tensor<[batch:4], f32>) -> !tessel.tensor<[batch:4], f32>
  return
}

// -----

// Mesh-level ops need a mesh on an enclosing module.
func.func @no_mesh(%x: !tessel.tensor<[batch:16, hidden:256], f32>)
    -> !tessel.tensor<[batch:16, hidden:256], f32> {
  // expected-error @+1 {{'tessel.all_reduce' op requires a 'tessel.mesh' attribute on an enclosing module}}
  %s = tessel.all_reduce sum %x over ["model"] : !tessel.tensor<[batch:16, hidden:256], f32>
  return %s : !tessel.tensor<[batch:16, hidden:256], f32>
}

// -----

// The mesh of an outer module covers nested modules.
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  module {
    func.func @nested(%x: !tessel.tensor<[batch:16], f32>) -> !tessel.tensor<[batch:16], f32> {
      // expected-error @+1 {{'tessel.all_reduce' op mesh has no axis 'model'}}
      %s = tessel.all_reduce sum %x over ["model"] : !tessel.tensor<[batch:16], f32>
      return %s : !tessel.tensor<[batch:16], f32>
    }
  }
}

// -----

// Any op may name its result with `tessel.name`, but only with a string.
func.func @name_not_string(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{'tessel.name' must be a string}}
  %y = tessel.relu %x {tessel.name = 3 : i32} : !tessel.tensor<[batch:4], f32>
  return
}
