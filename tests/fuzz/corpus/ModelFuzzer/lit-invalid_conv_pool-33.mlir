!y = !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
func.func @pool_element_type(%y: !y) {
  // expected-error @+1 {{'tessel.pool' op expected one element type, got 'f32' and 'f16'}}
  %p = tessel.pool avg %y {spatial = ["h", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[batch:8, f:16, h:14, w:14], f16>
  return
}
