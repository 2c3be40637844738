!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_missing_spatial(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op input has no dimension 'x'}}
  %p = tessel.pool max %y {spatial = ["x", "w"], window = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:27, w:27], f32>
  return
}
