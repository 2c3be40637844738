// expected-error @+1 {{mesh axis 'data' has size -2; sizes must be >= 1}}
func.func private @mesh_negative_axis() attributes {m = #tessel.mesh<[data:-2]>}
