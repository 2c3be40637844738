// expected-error @+1 {{expected '['}}
func.func private @missing_brackets(!tessel.tensor<batch:4, f32>)
