!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_padding_as_wide_as_window(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op padding of 'w' must be smaller than the window}}
  %p = tessel.pool avg %y {spatial = ["h", "w"], window = array<i64: 2, 2>, padding = array<i64: 1, 1, 0, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:29, w:29], f32>
  return
}
