// expected-error @+1 {{unknown attribute `grid` in dialect `tessel`}}
func.func private @unknown_attribute() attributes {g = #tessel.grid<[x:2]>}
