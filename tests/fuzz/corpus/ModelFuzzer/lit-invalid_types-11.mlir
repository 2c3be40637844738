// expected-error @+1 {{expected integer value}}
func.func private @non_integer_size(!tessel.tensor<[batch:4.5], f32>)
