// Errors of the dialect itself: its discardable attributes and unknown ops.

// expected-error @+1 {{'tessel.mesh' may only be attached to a module}}
func.func private @mesh_on_function() attributes {tessel.mesh = #tessel.mesh<[data:2]>}
