// expected-error @+1 {{expected ':'}}
func.func private @mesh_missing_size() attributes {m = #tessel.mesh<[data]>}
