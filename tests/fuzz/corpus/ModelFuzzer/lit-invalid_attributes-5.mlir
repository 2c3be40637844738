// expected-error @+1 {{layout lists dimension 'batch' twice}}
func.func private @layout_duplicate_dim() attributes {l = #tessel.layout<{batch = [data], batch = [model]}>}
