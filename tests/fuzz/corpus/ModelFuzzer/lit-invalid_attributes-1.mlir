// expected-error @+1 {{mesh axis 'model' has size 0; sizes must be >= 1}}
func.func private @mesh_zero_axis() attributes {m = #tessel.mesh<[data:2, model:0]>}
