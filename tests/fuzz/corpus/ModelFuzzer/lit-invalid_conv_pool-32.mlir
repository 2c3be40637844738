!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_result_extra_dim(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op result has unexpected dimension 'g'}}
  %p = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, g:1, h:14, w:14], f32>
  return
}
