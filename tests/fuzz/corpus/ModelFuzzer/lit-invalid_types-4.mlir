// expected-error @+1 {{dimension 'batch' has size -3; sizes must be >= 1}}
func.func private @negative_size(!tessel.tensor<[batch:-3], f32>)
