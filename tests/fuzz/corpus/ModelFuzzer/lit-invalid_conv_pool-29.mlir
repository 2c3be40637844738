!y = !tessel.tensor<[batch:8, f:16, h:28, w:2], f32>
func.func @pool_window_too_large(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op window is larger than the padded dimension 'w'}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 3, 3>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:26, w:1], f32>
  return
}
