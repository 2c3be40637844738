// expected-error @+1 {{dimension names must not be empty}}
func.func private @empty_name(!tessel.tensor<["":4], f32>)
