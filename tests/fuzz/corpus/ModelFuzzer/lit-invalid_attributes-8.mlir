// A dimension listed with no axes is an error: leave it out to replicate it.
// expected-error @+1 {{layout of dimension 'batch' names no mesh axis}}
func.func private @layout_empty_axes() attributes {l = #tessel.layout<{batch = []}>}
