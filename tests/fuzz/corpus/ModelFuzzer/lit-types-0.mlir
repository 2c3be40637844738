// Round trip of !tessel.tensor: every element type, scalars, names that
// need quoting, and layouts.

func.func private @element_types(!tessel.tensor<[a:2], f32>, !tessel.tensor<[a:2], f16>,
                                 !tessel.tensor<[a:2], bf16>, !tessel.tensor<[a:2], f64>,
                                 !tessel.tensor<[a:2], i1>, !tessel.tensor<[a:2], i32>,
                                 !tessel.tensor<[a:2], i64>)

func.func private @scalar(!tessel.tensor<[], f32>) -> !tessel.tensor<[], i64>

// The order of the dimensions is part of the type.
func.func private @dim_order(!tessel.tensor<[batch:64, hidden:1024], f32>,
                             !tessel.tensor<[hidden:1024, batch:64], f32>)

// Names that are not bare identifiers are printed as strings; bare names
// written as strings come back bare.
func.func private @quoted_names(!tessel.tensor<["my dim":3, "0th":2, "plain":1], f32>)

// The single axis shorthand `batch = data` prints as a list.
func.func private @layouts(
    !tessel.tensor<[batch:64, hidden:1024], bf16, #tessel.layout<{batch = data}>>,
    !tessel.tensor<[batch:64, hidden:1024], f32, #tessel.layout<{batch = [data], hidden = [model]}>>,
    !tessel.tensor<[batch:64, hidden:1024], f32, #tessel.layout<{hidden = [data, model]}>>,
    !tessel.tensor<[batch:64], f32, #tessel.layout<{}>>)

// The stripped form `<{...}>` parses too.
func.func private @stripped_layout(!tessel.tensor<[batch:64], f32, <{batch = [data]}>>)
