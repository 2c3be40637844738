// expected-error @+1 {{unsupported element type 'ui32'}}
func.func private @unsigned_element_type(!tessel.tensor<[batch:4], ui32>)
