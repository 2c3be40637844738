// expected-error @+1 {{expected ','}}
func.func private @missing_element_type(!tessel.tensor<[batch:4]>)
