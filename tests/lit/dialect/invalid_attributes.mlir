// Every error of the #tessel.mesh and #tessel.layout verifiers and parsers.
// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// expected-error @+1 {{mesh axis 'data' appears twice}}
func.func private @mesh_duplicate_axis() attributes {m = #tessel.mesh<[data:2, model:4, data:2]>}

// -----

// expected-error @+1 {{mesh axis 'model' has size 0; sizes must be >= 1}}
func.func private @mesh_zero_axis() attributes {m = #tessel.mesh<[data:2, model:0]>}

// -----

// expected-error @+1 {{mesh axis 'data' has size -2; sizes must be >= 1}}
func.func private @mesh_negative_axis() attributes {m = #tessel.mesh<[data:-2]>}

// -----

// A mesh of 2^64 ranks (an evaluator that simulates each rank would run
// forever, and the rank count wraps).
// expected-error @+1 {{the mesh has more than 2147483648 ranks}}
func.func private @mesh_too_many_ranks() attributes {m = #tessel.mesh<[data:4294967296, model:4294967296]>}

// -----

// expected-error @+1 {{expected ':'}}
func.func private @mesh_missing_size() attributes {m = #tessel.mesh<[data]>}

// -----

// expected-error @+1 {{expected '['}}
func.func private @mesh_missing_brackets() attributes {m = #tessel.mesh<data:2>}

// -----

// expected-error @+1 {{layout lists dimension 'batch' twice}}
func.func private @layout_duplicate_dim() attributes {l = #tessel.layout<{batch = [data], batch = [model]}>}

// -----

// expected-error @+1 {{mesh axis 'data' splits both dimension 'batch' and dimension 'hidden'}}
func.func private @layout_axis_reused() attributes {l = #tessel.layout<{batch = [data], hidden = [model, data]}>}

// -----

// An axis may not split one dimension twice either.
// expected-error @+1 {{mesh axis 'model' splits both dimension 'hidden' and dimension 'hidden'}}
func.func private @layout_axis_repeated() attributes {l = #tessel.layout<{hidden = [model, model]}>}

// -----

// A dimension listed with no axes is an error: leave it out to replicate it.
// expected-error @+1 {{layout of dimension 'batch' names no mesh axis}}
func.func private @layout_empty_axes() attributes {l = #tessel.layout<{batch = []}>}

// -----

// expected-error @+1 {{expected '='}}
func.func private @layout_missing_equal() attributes {l = #tessel.layout<{batch: data}>}

// -----

// expected-error @+1 {{expected '{'}}
func.func private @layout_missing_braces() attributes {l = #tessel.layout<batch = data>}

// -----

// expected-error @+1 {{expected valid keyword or string}}
func.func private @layout_integer_axis() attributes {l = #tessel.layout<{batch = 0}>}

// -----

// expected-error @+1 {{unbalanced '[' character in pretty dialect name}}
func.func private @layout_unclosed_list() attributes {l = #tessel.layout<{batch = [data, model}>}

// -----

// expected-error @+1 {{unknown attribute `grid` in dialect `tessel`}}
func.func private @unknown_attribute() attributes {g = #tessel.grid<[x:2]>}
