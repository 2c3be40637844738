!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_one_window(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op expected two positive window sizes}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:27, w:27], f32>
  return
}
