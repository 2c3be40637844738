// Malformed syntax.

// expected-error @+1 {{expected ':'}}
func.func private @missing_size(!tessel.tensor<[batch, hidden:8], f32>)
