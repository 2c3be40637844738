// expected-error @+1 {{expected '='}}
func.func private @layout_missing_equal() attributes {l = #tessel.layout<{batch: data}>}
