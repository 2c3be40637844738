// Any op may name its result with `tessel.name`, but only with a string.
func.func @name_not_string(%x: !tessel.tensor<[batch:4], f32>) {
  // expected-error @+1 {{'tessel.name' must be a string}}
  %y = tessel.relu %x {tessel.name = 3 : i32} : !tessel.tensor<[batch:4], f32>
  return
}
