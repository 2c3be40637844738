!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_result_size(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op result dimension 'h' has size 28, expected 14}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:28, w:14], f32>
  return
}
