// An axis may not split one dimension twice either.
// expected-error @+1 {{mesh axis 'model' splits both dimension 'hidden' and dimension 'hidden'}}
func.func private @layout_axis_repeated() attributes {l = #tessel.layout<{hidden = [model, model]}>}
