// Every error of the !tessel.tensor verifier and parser.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{dimension 'batch' appears twice in one tensor}}
func.func private @duplicate_dim(!tessel.tensor<[batch:4, hidden:8, batch:4], f32>)

// -----

// Duplicates are found even when their sizes differ.
// expected-error @+1 {{dimension 'k' appears twice in one tensor}}
func.func private @duplicate_dim_sizes(!tessel.tensor<[k:4, k:5], f32>)

// -----

// expected-error @+1 {{dimension names must not be empty}}
func.func private @empty_name(!tessel.tensor<["":4], f32>)

// -----

// expected-error @+1 {{dimension 'hidden' has size 0; sizes must be >= 1}}
func.func private @zero_size(!tessel.tensor<[batch:4, hidden:0], f32>)

// -----

// expected-error @+1 {{dimension 'batch' has size -3; sizes must be >= 1}}
func.func private @negative_size(!tessel.tensor<[batch:-3], f32>)

// -----

// expected-error @+1 {{unsupported element type 'i8' (expected f32, f16, bf16, f64, i1, i32 or i64)}}
func.func private @bad_element_type(!tessel.tensor<[batch:4], i8>)

// -----

// expected-error @+1 {{unsupported element type 'ui32'}}
func.func private @unsigned_element_type(!tessel.tensor<[batch:4], ui32>)

// -----

// expected-error @+1 {{unsupported element type 'tensor<4xf32>'}}
func.func private @nested_element_type(!tessel.tensor<[batch:4], tensor<4xf32>>)

// -----

// expected-error @+1 {{layout splits dimension 'hidden', which the tensor does not have}}
func.func private @layout_unknown_dim(!tessel.tensor<[batch:4], f32, #tessel.layout<{hidden = [model]}>>)

// -----

// A layout that is itself invalid is reported before the tensor's checks.
// expected-error @+1 {{mesh axis 'data' splits both dimension 'batch' and dimension 'hidden'}}
func.func private @layout_invalid(!tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data], hidden = [data]}>>)

// -----

// Malformed syntax.

// expected-error @+1 {{expected ':'}}
func.func private @missing_size(!tessel.tensor<[batch, hidden:8], f32>)

// -----

// expected-error @+1 {{expected integer value}}
func.func private @non_integer_size(!tessel.tensor<[batch:4.5], f32>)

// -----

// expected-error @+1 {{expected '['}}
func.func private @missing_brackets(!tessel.tensor<batch:4, f32>)

// -----

// expected-error @+1 {{expected ','}}
func.func private @missing_element_type(!tessel.tensor<[batch:4]>)

// -----

// expected-error @+1 {{expected '>'}}
func.func private @trailing_junk(!tessel.tensor<[batch:4], f32 junk>)
