// Errors of the verifiers of the element-wise ops: float-only unary ops,
// broadcasting by name, compare, select and cast.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

func.func @exp_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.exp' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.exp %x : !tessel.tensor<[k:3], i32>
  return
}

// -----

func.func @log_integer(%x: !tessel.tensor<[k:3], i64>) {
  // expected-error @+1 {{'tessel.log' op expected the operand to hold floats, got 'i64'}}
  %y = tessel.log %x : !tessel.tensor<[k:3], i64>
  return
}

// -----

func.func @sqrt_integer(%x: !tessel.tensor<[k:3], i1>) {
  // expected-error @+1 {{'tessel.sqrt' op expected the operand to hold floats, got 'i1'}}
  %y = tessel.sqrt %x : !tessel.tensor<[k:3], i1>
  return
}

// -----

func.func @rsqrt_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.rsqrt' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.rsqrt %x : !tessel.tensor<[k:3], i32>
  return
}

// -----

func.func @tanh_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.tanh' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.tanh %x : !tessel.tensor<[k:3], i32>
  return
}

// -----

func.func @sigmoid_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.sigmoid' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.sigmoid %x : !tessel.tensor<[k:3], i32>
  return
}

// -----

func.func @gelu_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.gelu' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.gelu %x : !tessel.tensor<[k:3], i32>
  return
}

// -----

// Unary ops keep the dimensions and element type; only the layout may change.
func.func @relu_element_type_change(%x: !tessel.tensor<[k:3], f32>) {
  // expected-error @+1 {{'tessel.relu' op result '!tessel.tensor<[k:3], f16>' must have the dimensions and element type of the operand '!tessel.tensor<[k:3], f32>'}}
  %y = tessel.relu %x : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:3], f16>
  return
}

// -----

func.func @neg_dims_change(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.neg' op result '!tessel.tensor<[j:3], i32>' must have the dimensions and element type of the operand '!tessel.tensor<[k:3], i32>'}}
  %y = tessel.neg %x : !tessel.tensor<[k:3], i32> -> !tessel.tensor<[j:3], i32>
  return
}

// -----

func.func @abs_size_change(%x: !tessel.tensor<[k:3], f32>) {
  // expected-error @+1 {{'tessel.abs' op result '!tessel.tensor<[k:4], f32>' must have the dimensions and element type of the operand '!tessel.tensor<[k:3], f32>'}}
  %y = tessel.abs %x : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:4], f32>
  return
}

// -----

// The shape is checked before the element type.
func.func @exp_transposed(%x: !tessel.tensor<[a:2, b:3], i32>) {
  // expected-error @+1 {{'tessel.exp' op result '!tessel.tensor<[b:3, a:2], i32>' must have the dimensions and element type of the operand '!tessel.tensor<[a:2, b:3], i32>'}}
  %y = tessel.exp %x : !tessel.tensor<[a:2, b:3], i32> -> !tessel.tensor<[b:3, a:2], i32>
  return
}

// -----

func.func @add_operand_dim_not_in_result(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                                         %b: !tessel.tensor<[extra:8], f32>) {
  // expected-error @+1 {{'tessel.add' op operand #1 has dimension 'extra', which the result does not have}}
  %y = tessel.add %x, %b
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[extra:8], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32>
  return
}

// -----

func.func @sub_lhs_dim_not_in_result(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                                     %b: !tessel.tensor<[hidden:8], f32>) {
  // expected-error @+1 {{'tessel.sub' op operand #0 has dimension 'batch', which the result does not have}}
  %y = tessel.sub %x, %b
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[hidden:8], f32>
  return
}

// -----

// The dialect-level case "a binary op whose named dims disagree in size".
func.func @mul_named_dims_disagree(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                                   %b: !tessel.tensor<[hidden:4], f32>) {
  // expected-error @+1 {{'tessel.mul' op dimension 'hidden' has size 4 in operand #1 but 8 in the result}}
  %y = tessel.mul %x, %b
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:4], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32>
  return
}

// -----

// Names, not positions, match: [a:2, b:3] and [b:2, a:3] disagree on both.
func.func @div_positions_do_not_match(%x: !tessel.tensor<[a:2, b:3], f32>,
                                      %y: !tessel.tensor<[b:2, a:3], f32>) {
  // expected-error @+1 {{'tessel.div' op dimension 'b' has size 2 in operand #1 but 3 in the result}}
  %z = tessel.div %x, %y
      : !tessel.tensor<[a:2, b:3], f32>, !tessel.tensor<[b:2, a:3], f32>
      -> !tessel.tensor<[a:2, b:3], f32>
  return
}

// -----

func.func @max_result_size(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                           %b: !tessel.tensor<[hidden:8], f32>) {
  // expected-error @+1 {{'tessel.max' op dimension 'batch' has size 4 in operand #0 but 5 in the result}}
  %y = tessel.max %x, %b
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[batch:5, hidden:8], f32>
  return
}

// -----

func.func @min_result_dim_from_nowhere(%x: !tessel.tensor<[hidden:8], f32>,
                                       %b: !tessel.tensor<[hidden:8], f32>) {
  // expected-error @+1 {{'tessel.min' op result dimension 'batch' does not come from any operand}}
  %y = tessel.min %x, %b
      : !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32>
  return
}

// -----

func.func @pow_element_types(%x: !tessel.tensor<[hidden:8], f32>,
                             %b: !tessel.tensor<[hidden:8], f16>) {
  // expected-error @+1 {{'tessel.pow' op expected one element type, got 'f32' and 'f16'}}
  %y = tessel.pow %x, %b
      : !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[hidden:8], f16>
      -> !tessel.tensor<[hidden:8], f32>
  return
}

// -----

func.func @add_result_element_type(%x: !tessel.tensor<[hidden:8], f32>,
                                   %b: !tessel.tensor<[hidden:8], f32>) {
  // expected-error @+1 {{'tessel.add' op expected one element type, got 'f32' and 'bf16'}}
  %y = tessel.add %x, %b
      : !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[hidden:8], bf16>
  return
}

// -----

func.func @compare_broadcast(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], i32>) {
  // expected-error @+1 {{'tessel.compare' op result dimension 'batch' does not come from any operand}}
  %m = tessel.compare ge, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[batch:2, seq:8, key:8], i1>
  return
}

// -----

func.func @compare_size(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], i32>) {
  // expected-error @+1 {{'tessel.compare' op dimension 'key' has size 8 in operand #1 but 4 in the result}}
  %m = tessel.compare ge, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:4], i1>
  return
}

// -----

func.func @compare_element_types(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], f32>) {
  // expected-error @+1 {{'tessel.compare' op expected one element type, got 'i32' and 'f32'}}
  %m = tessel.compare lt, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], f32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  return
}

// -----

func.func @compare_result_not_i1(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], i32>) {
  // expected-error @+1 {{'tessel.compare' op result must hold i1, got 'i32'}}
  %m = tessel.compare eq, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i32>
  return
}

// -----

func.func @compare_bad_kind(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], i32>) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [eq, ne, lt, le, gt, ge]}}
  %m = tessel.compare approx, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  return
}

// -----

func.func @select_condition_dim(%m: !tessel.tensor<[seq:8, key:8], i1>,
                                %s: !tessel.tensor<[heads:2, seq:8], f32>,
                                %n: !tessel.tensor<[], f32>) {
  // expected-error @+1 {{'tessel.select' op operand #0 has dimension 'key', which the result does not have}}
  %r = tessel.select %m, %s, %n
      : !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[heads:2, seq:8], f32>,
        !tessel.tensor<[], f32> -> !tessel.tensor<[heads:2, seq:8], f32>
  return
}

// -----

func.func @select_on_false_size(%m: !tessel.tensor<[seq:8], i1>,
                                %s: !tessel.tensor<[seq:8], f32>,
                                %n: !tessel.tensor<[seq:4], f32>) {
  // expected-error @+1 {{'tessel.select' op dimension 'seq' has size 4 in operand #2 but 8 in the result}}
  %r = tessel.select %m, %s, %n
      : !tessel.tensor<[seq:8], i1>, !tessel.tensor<[seq:8], f32>,
        !tessel.tensor<[seq:4], f32> -> !tessel.tensor<[seq:8], f32>
  return
}

// -----

func.func @select_element_types(%m: !tessel.tensor<[seq:8], i1>,
                                %s: !tessel.tensor<[seq:8], f32>,
                                %n: !tessel.tensor<[], bf16>) {
  // expected-error @+1 {{'tessel.select' op expected one element type, got 'f32' and 'bf16'}}
  %r = tessel.select %m, %s, %n
      : !tessel.tensor<[seq:8], i1>, !tessel.tensor<[seq:8], f32>,
        !tessel.tensor<[], bf16> -> !tessel.tensor<[seq:8], f32>
  return
}

// -----

func.func @cast_renames(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{'tessel.cast' op result must have the input's dimensions}}
  %y = tessel.cast %x : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[rows:4], bf16>
  return
}

// -----

func.func @cast_resizes(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{'tessel.cast' op result must have the input's dimensions}}
  %y = tessel.cast %x : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:2], bf16>
  return
}

// -----

func.func @cast_transposes(%x: !tessel.tensor<[a:2, b:2], f32>) {
  // expected-error @+1 {{'tessel.cast' op result must have the input's dimensions}}
  %y = tessel.cast %x : !tessel.tensor<[a:2, b:2], f32> -> !tessel.tensor<[b:2, a:2], f16>
  return
}

// -----

func.func @sin_integer(%x: !tessel.tensor<[k:3], i32>) {
  // expected-error @+1 {{'tessel.sin' op expected the operand to hold floats, got 'i32'}}
  %y = tessel.sin %x : !tessel.tensor<[k:3], i32>
  return
}

// -----

func.func @cos_integer(%x: !tessel.tensor<[k:3], i64>) {
  // expected-error @+1 {{'tessel.cos' op expected the operand to hold floats, got 'i64'}}
  %y = tessel.cos %x : !tessel.tensor<[k:3], i64>
  return
}
