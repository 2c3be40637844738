// expected-error @+1 {{expected '['}}
func.func private @mesh_missing_brackets() attributes {m = #tessel.mesh<data:2>}
