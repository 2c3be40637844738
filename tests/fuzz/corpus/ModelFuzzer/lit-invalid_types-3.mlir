// expected-error @+1 {{dimension 'hidden' has size 0; sizes must be >= 1}}
func.func private @zero_size(!tessel.tensor<[batch:4, hidden:0], f32>)
