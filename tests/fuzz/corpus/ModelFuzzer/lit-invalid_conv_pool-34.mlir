!y = !tessel.tensor<[h:4, w:4], f32>
func.func @pool_bad_kind(%y: !y) {
  // expected-error @+1 {{expected string or keyword containing one of the following enum values for attribute 'kind' [max, avg]}}
  %p = tessel.pool sum %y {spatial = ["h", "w"], window = array<i64: 2, 2>}
      : !y -> !tessel.tensor<[h:3, w:3], f32>
  return
}
