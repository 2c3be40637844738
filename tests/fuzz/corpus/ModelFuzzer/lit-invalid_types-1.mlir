// Duplicates are found even when their sizes differ.
// expected-error @+1 {{dimension 'k' appears twice in one tensor}}
func.func private @duplicate_dim_sizes(!tessel.tensor<[k:4, k:5], f32>)
