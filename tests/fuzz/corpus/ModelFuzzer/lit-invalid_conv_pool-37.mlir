func.func @pool_repeated_spatial(%x: !tessel.tensor<[h:4, w:4], f32>) {
  // expected-error @+1 {{'tessel.pool' op spatial lists dimension 'h' twice}}
  %p = tessel.pool max %x {spatial = ["h", "h"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !tessel.tensor<[h:4, w:4], f32> -> !tessel.tensor<[h:2, w:4], f32>
  return
}
