// expected-error @+1 {{layout splits dimension 'hidden', which the tensor does not have}}
func.func private @layout_unknown_dim(!tessel.tensor<[batch:4], f32, #tessel.layout<{hidden = [model]}>>)
