// expected-error @+1 {{expected valid keyword or string}}
func.func private @layout_integer_axis() attributes {l = #tessel.layout<{batch = 0}>}
