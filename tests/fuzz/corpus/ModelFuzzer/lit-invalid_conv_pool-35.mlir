// A window that does not fit the padded input is rejected whatever the
// stride.
func.func @pool_window_too_large_strided(%x: !tessel.tensor<[h:3, w:3], f32>) {
  // expected-error @+1 {{'tessel.pool' op window is larger than the padded dimension 'h'}}
  %p = tessel.pool max %x {spatial = ["h", "w"], window = array<i64: 4, 2>, strides = array<i64: 2, 2>}
      : !tessel.tensor<[h:3, w:3], f32> -> !tessel.tensor<[h:1, w:1], f32>
  return
}
