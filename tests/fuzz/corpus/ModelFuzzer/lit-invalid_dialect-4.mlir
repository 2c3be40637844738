// expected-error-re @+1 {{unknown tessel attribute '{{"?}}tessel.layout{{"?}}'}}
func.func private @unknown_on_function() attributes {tessel.layout = #tessel.layout<{batch = [data]}>}
