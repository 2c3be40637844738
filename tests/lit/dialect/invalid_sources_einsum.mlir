// Errors of the verifiers of parameter, constant, iota and einsum.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

func.func @parameter_empty_name() {
  // expected-error @+1 {{'tessel.parameter' op parameter name must not be empty}}
  %w = tessel.parameter "" normal scale 0.02 seed 1 : !tessel.tensor<[hidden:8], f32>
  return
}

// -----

func.func @parameter_negative_scale() {
  // expected-error @+1 {{'tessel.parameter' op scale must not be negative}}
  %w = tessel.parameter "w" uniform scale -0.5 seed 1 : !tessel.tensor<[hidden:8], f32>
  return
}

// -----

func.func @parameter_integer() {
  // expected-error @+1 {{'tessel.parameter' op expected a parameter to hold floats, got 'i32'}}
  %w = tessel.parameter "w" zeros scale 1.0 seed 0 : !tessel.tensor<[hidden:8], i32>
  return
}

// -----

func.func @parameter_bad_init() {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'init' [zeros, ones, uniform, normal]}}
  %w = tessel.parameter "w" xavier scale 1.0 seed 0 : !tessel.tensor<[hidden:8], f32>
  return
}

// -----

// A parameter block (`block of`) needs a laid-out global type with the
// result's dimensions and element type, a mesh, a legal layout on it, and
// the block shape that layout gives.
module attributes {tessel.mesh = #tessel.mesh<[model:4]>} {
func.func @parameter_block_no_layout() {
  // expected-error @+1 {{'tessel.parameter' op 'block of' type '!tessel.tensor<[hidden:8], f32>' has no layout}}
  %w = tessel.parameter "w" normal scale 1.0 seed 1 block of !tessel.tensor<[hidden:8], f32>
      : !tessel.tensor<[hidden:2], f32>
  return
}
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[model:4]>} {
func.func @parameter_block_other_dims() {
  // expected-error @+1 {{is not a block of '!tessel.tensor<[hidden:8], f32, #tessel.layout<{hidden = [model]}>>': the dimensions and element type must be the same}}
  %w = tessel.parameter "w" normal scale 1.0 seed 1
      block of !tessel.tensor<[hidden:8], f32, #tessel.layout<{hidden = [model]}>>
      : !tessel.tensor<[k:2], f32>
  return
}
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[model:4]>} {
func.func @parameter_block_other_type() {
  // expected-error @+1 {{the dimensions and element type must be the same}}
  %w = tessel.parameter "w" normal scale 1.0 seed 1
      block of !tessel.tensor<[hidden:8], f32, #tessel.layout<{hidden = [model]}>>
      : !tessel.tensor<[hidden:2], bf16>
  return
}
}

// -----

func.func @parameter_block_no_mesh() {
  // expected-error @+1 {{'tessel.parameter' op 'block of' requires a 'tessel.mesh' attribute on an enclosing module}}
  %w = tessel.parameter "w" normal scale 1.0 seed 1
      block of !tessel.tensor<[hidden:8], f32, #tessel.layout<{hidden = [model]}>>
      : !tessel.tensor<[hidden:2], f32>
  return
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[data:4]>} {
func.func @parameter_block_unknown_axis() {
  // expected-error @+1 {{'tessel.parameter' op 'block of' type: dimension 'hidden' is split over 'model', which is not an axis of the mesh}}
  %w = tessel.parameter "w" normal scale 1.0 seed 1
      block of !tessel.tensor<[hidden:8], f32, #tessel.layout<{hidden = [model]}>>
      : !tessel.tensor<[hidden:2], f32>
  return
}
}

// -----

module attributes {tessel.mesh = #tessel.mesh<[model:4]>} {
func.func @parameter_block_wrong_size() {
  // expected-error @+1 {{'tessel.parameter' op dimension 'hidden' of the block has size 4, but the layout of '!tessel.tensor<[hidden:10], f32, #tessel.layout<{hidden = [model]}>>' on #tessel.mesh<[model:4]> gives blocks of 3}}
  %w = tessel.parameter "w" normal scale 1.0 seed 1
      block of !tessel.tensor<[hidden:10], f32, #tessel.layout<{hidden = [model]}>>
      : !tessel.tensor<[hidden:4], f32>
  return
}
}

// -----

func.func @constant_string() {
  // expected-error @+1 {{'tessel.constant' op value must be a float, an integer or dense elements}}
  %c = tessel.constant "one" -> !tessel.tensor<[], f32>
  return
}

// -----

func.func @constant_array() {
  // expected-error @+1 {{'tessel.constant' op value must be a float, an integer or dense elements}}
  %c = tessel.constant [1.0, 2.0] -> !tessel.tensor<[k:2], f32>
  return
}

// -----

func.func @constant_count() {
  // expected-error @+1 {{'tessel.constant' op value has 3 elements but the result has 4}}
  %c = tessel.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32> -> !tessel.tensor<[i:2, j:2], f32>
  return
}

// -----

func.func @iota_missing_dim() {
  // expected-error @+1 {{'tessel.iota' op result has no dimension 'key'}}
  %q = tessel.iota "key" : !tessel.tensor<[seq:8], i32>
  return
}

// -----

func.func @einsum_no_inputs() {
  // expected-error @+1 {{'tessel.einsum' op expected at least one input}}
  %r = tessel.einsum : () -> !tessel.tensor<[], f32>
  return
}

// -----

// The dialect-level case "an einsum whose dim sizes disagree".
func.func @einsum_size_mismatch(%a: !tessel.tensor<[i:2, j:3], f32>,
                                %b: !tessel.tensor<[j:4, k:5], f32>) {
  // expected-error @+1 {{'tessel.einsum' op dimension 'j' has size 3 in one input but 4 in input #1}}
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:4, k:5], f32>)
      -> !tessel.tensor<[i:2, k:5], f32>
  return
}

// -----

// The mismatch is found in the third input as well.
func.func @einsum_size_mismatch_third(%a: !tessel.tensor<[i:2], f32>,
                                      %b: !tessel.tensor<[j:3], f32>,
                                      %c: !tessel.tensor<[i:7], f32>) {
  // expected-error @+1 {{'tessel.einsum' op dimension 'i' has size 2 in one input but 7 in input #2}}
  %r = tessel.einsum %a, %b, %c
      : (!tessel.tensor<[i:2], f32>, !tessel.tensor<[j:3], f32>, !tessel.tensor<[i:7], f32>)
      -> !tessel.tensor<[], f32>
  return
}

// -----

func.func @einsum_result_dim_unknown(%a: !tessel.tensor<[i:2, j:3], f32>,
                                     %b: !tessel.tensor<[j:3, k:5], f32>) {
  // expected-error @+1 {{'tessel.einsum' op result dimension 'l' does not appear in any input}}
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:5], f32>)
      -> !tessel.tensor<[i:2, l:5], f32>
  return
}

// -----

func.func @einsum_result_size(%a: !tessel.tensor<[i:2, j:3], f32>,
                              %b: !tessel.tensor<[j:3, k:5], f32>) {
  // expected-error @+1 {{'tessel.einsum' op result dimension 'k' has size 6 but 5 in the inputs}}
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:5], f32>)
      -> !tessel.tensor<[i:2, k:6], f32>
  return
}

// -----

func.func @einsum_element_types(%a: !tessel.tensor<[i:2, j:3], f32>,
                                %b: !tessel.tensor<[j:3, k:5], bf16>) {
  // expected-error @+1 {{'tessel.einsum' op expected one element type, got 'f32' and 'bf16'}}
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:5], bf16>)
      -> !tessel.tensor<[i:2, k:5], f32>
  return
}

// -----

func.func @einsum_result_element_type(%a: !tessel.tensor<[i:2, j:3], f32>,
                                      %b: !tessel.tensor<[j:3, k:5], f32>) {
  // expected-error @+1 {{'tessel.einsum' op expected one element type, got 'f32' and 'f16'}}
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:5], f32>)
      -> !tessel.tensor<[i:2, k:5], f16>
  return
}

// -----

func.func @constant_float_into_integers() {
  // expected-error @+1 {{'tessel.constant' op dense elements of 'f32' do not suit elements of 'i32'}}
  %c = tessel.constant dense<[1.5, 2.5]> : tensor<2xf32> -> !tessel.tensor<[k:2], i32>
  return
}

// -----

func.func @constant_integer_splat_into_floats() {
  // expected-error @+1 {{'tessel.constant' op value 1 : i32 does not suit elements of 'f32'}}
  %c = tessel.constant 1 : i32 -> !tessel.tensor<[k:2], f32>
  return
}
