// expected-error @+1 {{unbalanced '[' character in pretty dialect name}}
func.func private @layout_unclosed_list() attributes {l = #tessel.layout<{batch = [data, model}>}
