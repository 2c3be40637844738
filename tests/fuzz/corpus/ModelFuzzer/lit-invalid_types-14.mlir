// expected-error @+1 {{expected '>'}}
func.func private @trailing_junk(!tessel.tensor<[batch:4], f32 junk>)
