// expected-error @+1 {{mesh axis 'data' splits both dimension 'batch' and dimension 'hidden'}}
func.func private @layout_axis_reused() attributes {l = #tessel.layout<{batch = [data], hidden = [model, data]}>}
