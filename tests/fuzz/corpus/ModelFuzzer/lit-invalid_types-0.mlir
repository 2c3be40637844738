// Every error of the !tessel.tensor verifier and parser.

// expected-error @+1 {{dimension 'batch' appears twice in one tensor}}
func.func private @duplicate_dim(!tessel.tensor<[batch:4, hidden:8, batch:4], f32>)
