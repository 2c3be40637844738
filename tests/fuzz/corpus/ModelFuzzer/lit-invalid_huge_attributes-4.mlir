!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_padding_overflows(%y: !y) {
  // The padding is smaller than the window, as pooling requires.
  // expected-error @+1 {{'tessel.pool' op padding [9223372036854775806, 0] of dimension 'h' (size 28) makes it larger than 2^63 - 1}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 9223372036854775807, 2>, padding = array<i64: 9223372036854775806, 0, 0, 0>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:1, w:27], f32>
  return
}

