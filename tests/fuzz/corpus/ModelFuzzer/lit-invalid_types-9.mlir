// A layout that is itself invalid is reported before the tensor's checks.
// expected-error @+1 {{mesh axis 'data' splits both dimension 'batch' and dimension 'hidden'}}
func.func private @layout_invalid(!tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data], hidden = [data]}>>)
