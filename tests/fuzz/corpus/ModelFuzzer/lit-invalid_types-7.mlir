// expected-error @+1 {{unsupported element type 'tensor<4xf32>'}}
func.func private @nested_element_type(!tessel.tensor<[batch:4], tensor<4xf32>>)
