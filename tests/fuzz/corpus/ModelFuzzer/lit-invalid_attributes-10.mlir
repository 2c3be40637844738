// expected-error @+1 {{expected '{'}}
func.func private @layout_missing_braces() attributes {l = #tessel.layout<batch = data>}
