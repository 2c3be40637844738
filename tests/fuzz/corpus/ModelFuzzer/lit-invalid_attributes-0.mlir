// Every error of the #tessel.mesh and #tessel.layout verifiers and parsers.

// expected-error @+1 {{mesh axis 'data' appears twice}}
func.func private @mesh_duplicate_axis() attributes {m = #tessel.mesh<[data:2, model:4, data:2]>}
