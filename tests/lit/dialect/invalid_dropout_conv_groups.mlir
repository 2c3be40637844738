// Errors of the verifiers of tessel.dropout and of grouped convolutions.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

func.func @rate_one(%x: !tessel.tensor<[k:3], f32>, %s: !tessel.tensor<[], i64>) {
  // expected-error @+1 {{rate must be in [0, 1), got 1.000000e+00}}
  %y = tessel.dropout %x step %s rate 1.0 seed 0 : !tessel.tensor<[k:3], f32>, !tessel.tensor<[], i64>
  return
}

// -----

func.func @rate_negative(%x: !tessel.tensor<[k:3], f32>, %s: !tessel.tensor<[], i64>) {
  // expected-error @+1 {{rate must be in [0, 1), got -1.000000e-01}}
  %y = tessel.dropout %x step %s rate -0.1 seed 0 : !tessel.tensor<[k:3], f32>, !tessel.tensor<[], i64>
  return
}

// -----

func.func @integer_input(%x: !tessel.tensor<[k:3], i32>, %s: !tessel.tensor<[], i64>) {
  // expected-error @+1 {{expected the input to hold floats, got 'i32'}}
  %y = tessel.dropout %x step %s rate 0.5 seed 0 : !tessel.tensor<[k:3], i32>, !tessel.tensor<[], i64>
  return
}

// -----

func.func @float_step(%x: !tessel.tensor<[k:3], f32>, %s: !tessel.tensor<[], f32>) {
  // expected-error @+1 {{expected step to hold integers, got 'f32'}}
  %y = tessel.dropout %x step %s rate 0.5 seed 0 : !tessel.tensor<[k:3], f32>, !tessel.tensor<[], f32>
  return
}

// -----

func.func @step_not_scalar(%x: !tessel.tensor<[k:3], f32>, %s: !tessel.tensor<[k:3], i64>) {
  // expected-error @+1 {{step must be a scalar}}
  %y = tessel.dropout %x step %s rate 0.5 seed 0 : !tessel.tensor<[k:3], f32>, !tessel.tensor<[k:3], i64>
  return
}

// -----

func.func @other_result(%x: !tessel.tensor<[k:3], f32>, %s: !tessel.tensor<[], i64>) {
  // expected-error @+1 {{}}
  %y = tessel.dropout %x step %s rate 0.5 seed 0 : !tessel.tensor<[k:3], f32> -> !tessel.tensor<[k:4], f32>, !tessel.tensor<[], i64>
  return
}

// -----

func.func @groups_zero(%x: !tessel.tensor<[n:2, c:6, h:5, w:5], f32>,
                       %k: !tessel.tensor<[c:6, f:4, kh:3, kw:3], f32>) {
  // expected-error @+1 {{groups must be positive, got 0}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 0}
      : !tessel.tensor<[n:2, c:6, h:5, w:5], f32>, !tessel.tensor<[c:6, f:4, kh:3, kw:3], f32>
      -> !tessel.tensor<[n:2, f:4, h:3, w:3], f32>
  return
}

// -----

func.func @groups_not_dividing_inputs(%x: !tessel.tensor<[n:2, c:6, h:5, w:5], f32>,
                                      %k: !tessel.tensor<[c:1, f:4, kh:3, kw:3], f32>) {
  // expected-error @+1 {{groups 4 does not divide the input channel 'c' of size 6}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 4}
      : !tessel.tensor<[n:2, c:6, h:5, w:5], f32>, !tessel.tensor<[c:1, f:4, kh:3, kw:3], f32>
      -> !tessel.tensor<[n:2, f:4, h:3, w:3], f32>
  return
}

// -----

func.func @groups_not_dividing_outputs(%x: !tessel.tensor<[n:2, c:6, h:5, w:5], f32>,
                                       %k: !tessel.tensor<[c:2, f:4, kh:3, kw:3], f32>) {
  // expected-error @+1 {{groups 3 does not divide the output channel 'f' of size 4}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 3}
      : !tessel.tensor<[n:2, c:6, h:5, w:5], f32>, !tessel.tensor<[c:2, f:4, kh:3, kw:3], f32>
      -> !tessel.tensor<[n:2, f:4, h:3, w:3], f32>
  return
}

// -----

func.func @filter_channels_of_all_groups(%x: !tessel.tensor<[n:2, c:6, h:5, w:5], f32>,
                                         %k: !tessel.tensor<[c:6, f:4, kh:3, kw:3], f32>) {
  // expected-error @+1 {{dimension 'c' has size 6 in the input, so with groups 2 the filter's must be 3, got 6}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 2}
      : !tessel.tensor<[n:2, c:6, h:5, w:5], f32>, !tessel.tensor<[c:6, f:4, kh:3, kw:3], f32>
      -> !tessel.tensor<[n:2, f:4, h:3, w:3], f32>
  return
}

// -----

func.func @gradient_groups(%dy: !tessel.tensor<[n:2, f:4, h:3, w:3], f32>,
                           %k: !tessel.tensor<[c:6, f:4, kh:3, kw:3], f32>) {
  // expected-error @+1 {{with groups 2 the filter's must be 3, got 6}}
  %dx = tessel.conv2d_backward_input %dy, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"], groups = 2}
      : !tessel.tensor<[n:2, f:4, h:3, w:3], f32>, !tessel.tensor<[c:6, f:4, kh:3, kw:3], f32>
      -> !tessel.tensor<[n:2, c:6, h:5, w:5], f32>
  return
}
