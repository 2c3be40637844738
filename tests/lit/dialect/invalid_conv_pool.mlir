// Errors of the verifiers of conv2d and pool.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_one_spatial(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected two spatial dimensions}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:28], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_zero_stride(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected two positive strides}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], strides = array<i64: 1, 0>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_three_strides(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected two positive strides}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], strides = array<i64: 1, 1, 1>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_negative_padding(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected four non-negative paddings [low_h, high_h, low_w, high_w]}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, -1, 1>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:28, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_two_paddings(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected four non-negative paddings [low_h, high_h, low_w, high_w]}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 1, 1>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_one_kernel(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected two kernel dimensions}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_zero_dilation(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected two positive dilations}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], dilations = array<i64: 0, 1>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_input_missing_channel(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op input has no dimension 'channels'}}
  %y = tessel.conv2d %x, %k {input_channel = "channels", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[cin:1, f:16, kh:3, kw:3], f32>
func.func @conv_filter_missing_input_channel(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op filter has no dimension 'c'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_filter_missing_output_channel(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op filter has no dimension 'features'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "features", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, features:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, f:2, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_output_channel_in_input(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op output channel 'f' must not be an input dimension}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:3, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_channel_size(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op dimension 'c' has size 3 in the input but 1 in the filter}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3, g:2], f32>
func.func @conv_filter_rank(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op filter must have exactly the dimensions 'c', 'f' and the two kernel ones}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_input_missing_spatial(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op input has no dimension 'width'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "width"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_filter_missing_kernel(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op filter has no dimension 'kx'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kx"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:2, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_kernel_too_large(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op kernel 'kh' is larger than the padded dimension 'h'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:1, w:26], f32>
  return
}

// -----

// Dilation makes the kernel's extent 2 * (3 - 1) + 1 = 5 > 4.
!x = !tessel.tensor<[batch:8, c:1, h:28, w:4], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_dilated_kernel_too_large(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op kernel 'kw' is larger than the padded dimension 'w'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], dilations = array<i64: 1, 2>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:1], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_result_missing_output_channel(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op result is missing dimension 'f'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, c:1, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_result_spatial_size(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op result dimension 'h' has size 28, expected 26}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:28, w:26], f32>
  return
}

// -----

// Strided: (28 + 1 + 1 - 3) / 2 + 1 = 14.
!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_result_strided_size(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op result dimension 'w' has size 15, expected 14}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], strides = array<i64: 2, 2>, padding = array<i64: 1, 1, 1, 1>}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:14, w:15], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
func.func @conv_result_keeps_input_channel(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op result has unexpected dimension 'c'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, c:1, f:16, h:26, w:26], f32>
  return
}

// -----

!x = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!k = !tessel.tensor<[c:1, f:16, kh:3, kw:3], bf16>
func.func @conv_element_types(%x: !x, %k: !k) {
  // expected-error @+1 {{'tessel.conv2d' op expected one element type, got 'f32' and 'bf16'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"]}
      : !x, !k -> !tessel.tensor<[batch:8, f:16, h:26, w:26], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_one_spatial(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op expected two spatial dimensions}}
  %p = tessel.pool max %y {spatial = ["h", "w", "f"], window = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:27, w:27], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_negative_stride(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op expected two positive strides}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2, 2>, strides = array<i64: -2, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:14, w:14], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_negative_padding(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op expected four non-negative paddings [low_h, high_h, low_w, high_w]}}
  %p = tessel.pool avg %y {spatial = ["h", "w"], window = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, -1>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:27, w:26], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_zero_window(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op expected two positive window sizes}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2, 0>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:27, w:28], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_one_window(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op expected two positive window sizes}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:27, w:27], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_missing_spatial(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op input has no dimension 'x'}}
  %p = tessel.pool max %y {spatial = ["x", "w"], window = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:27, w:27], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_padding_as_wide_as_window(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op padding of 'w' must be smaller than the window}}
  %p = tessel.pool avg %y {spatial = ["h", "w"], window = array<i64: 2, 2>, padding = array<i64: 1, 1, 0, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:29, w:29], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:2], f32>
func.func @pool_window_too_large(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op window is larger than the padded dimension 'w'}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 3, 3>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:26, w:1], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_result_size(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op result dimension 'h' has size 28, expected 14}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:28, w:14], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_result_missing_dim(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op result is missing dimension 'f'}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[batch:8, h:14, w:14], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_result_extra_dim(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op result has unexpected dimension 'g'}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, g:1, h:14, w:14], f32>
  return
}

// -----

!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_element_type(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op expected one element type, got 'f32' and 'f16'}}
  %p = tessel.pool avg %y {spatial = ["h", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:14, w:14], f16>
  return
}

// -----

!y = !tessel.tensor<[h:4, w:4], f32>
func.func @pool_bad_kind(%y: !y) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [max, avg]}}
  %p = tessel.pool sum %y {spatial = ["h", "w"], window = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[h:3, w:3], f32>
  return
}

// -----

// A window that does not fit the padded input is rejected whatever the
// stride.
func.func @pool_window_too_large_strided(%x: !tessel.tensor<[h:3, w:3], f32>) {
  // expected-error @+1 {{'tessel.pool' op window is larger than the padded dimension 'h'}}
  %p = tessel.pool max %x {spatial = ["h", "w"], window = array<i64: 4, 2>, strides = array<i64: 2, 2>}
      : !tessel.tensor<[h:3, w:3], f32> -> !tessel.tensor<[h:1, w:1], f32>
  return
}

// -----

func.func @conv_kernel_too_large_strided(%x: !tessel.tensor<[c:1, h:3, w:3], f32>,
                                         %k: !tessel.tensor<[c:1, f:2, kh:4, kw:1], f32>) {
  // expected-error @+1 {{'tessel.conv2d' op kernel 'kh' is larger than the padded dimension 'h'}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"],
                             kernel = ["kh", "kw"], strides = array<i64: 2, 2>}
      : !tessel.tensor<[c:1, h:3, w:3], f32>, !tessel.tensor<[c:1, f:2, kh:4, kw:1], f32>
      -> !tessel.tensor<[f:2, h:1, w:2], f32>
  return
}

// -----

func.func @pool_repeated_spatial(%x: !tessel.tensor<[h:4, w:4], f32>) {
  // expected-error @+1 {{'tessel.pool' op spatial lists dimension 'h' twice}}
  %p = tessel.pool max %x {spatial = ["h", "h"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !tessel.tensor<[h:4, w:4], f32> -> !tessel.tensor<[h:2, w:4], f32>
  return
}

// -----

func.func @conv_repeated_kernel(%x: !tessel.tensor<[c:1, h:4, w:4], f32>,
                                %k: !tessel.tensor<[c:1, f:2, kh:2, kw:2], f32>) {
  // expected-error @+1 {{'tessel.conv2d' op kernel lists dimension 'kh' twice}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"],
                             kernel = ["kh", "kh"]}
      : !tessel.tensor<[c:1, h:4, w:4], f32>, !tessel.tensor<[c:1, f:2, kh:2, kw:2], f32>
      -> !tessel.tensor<[f:2, h:3, w:3], f32>
  return
}

// -----

func.func @conv_filter_extra_dim(%x: !tessel.tensor<[c:1, h:4, w:4], f32>,
                                 %k: !tessel.tensor<[c:1, f:2, kh:2, z:2], f32>) {
  // expected-error @+1 {{'tessel.conv2d' op filter must have exactly the dimensions 'c', 'f' and the two kernel ones}}
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"],
                             kernel = ["kh", "c"]}
      : !tessel.tensor<[c:1, h:4, w:4], f32>, !tessel.tensor<[c:1, f:2, kh:2, z:2], f32>
      -> !tessel.tensor<[f:2, h:3, w:4], f32>
  return
}
