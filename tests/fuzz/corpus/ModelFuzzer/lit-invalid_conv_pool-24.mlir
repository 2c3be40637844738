!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_negative_padding(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op expected four non-negative paddings [low_h, high_h, low_w, high_w]}}
  %p = tessel.pool avg %y {spatial = ["h", "w"], window = array<i64: 2, 2>, padding = array<i64: 0, 0, 0, -1>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:27, w:26], f32>
  return
}
