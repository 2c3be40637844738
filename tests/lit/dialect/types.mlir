// Round trip of !tessel.tensor: every element type, scalars, names that
// need quoting, and layouts.
// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt -mlir-print-op-generic %s | tessel-opt | FileCheck %s

// CHECK-LABEL: func.func private @element_types
// CHECK-SAME: !tessel.tensor<[a:2], f32>
// CHECK-SAME: !tessel.tensor<[a:2], f16>
// CHECK-SAME: !tessel.tensor<[a:2], bf16>
// CHECK-SAME: !tessel.tensor<[a:2], f64>
// CHECK-SAME: !tessel.tensor<[a:2], i1>
// CHECK-SAME: !tessel.tensor<[a:2], i32>
// CHECK-SAME: !tessel.tensor<[a:2], i64>
func.func private @element_types(!tessel.tensor<[a:2], f32>, !tessel.tensor<[a:2], f16>,
                                 !tessel.tensor<[a:2], bf16>, !tessel.tensor<[a:2], f64>,
                                 !tessel.tensor<[a:2], i1>, !tessel.tensor<[a:2], i32>,
                                 !tessel.tensor<[a:2], i64>)

// CHECK-LABEL: func.func private @scalar
// CHECK-SAME: (!tessel.tensor<[], f32>) -> !tessel.tensor<[], i64>
func.func private @scalar(!tessel.tensor<[], f32>) -> !tessel.tensor<[], i64>

// The order of the dimensions is part of the type.
// CHECK-LABEL: func.func private @dim_order
// CHECK-SAME: (!tessel.tensor<[batch:64, hidden:1024], f32>, !tessel.tensor<[hidden:1024, batch:64], f32>)
func.func private @dim_order(!tessel.tensor<[batch:64, hidden:1024], f32>,
                             !tessel.tensor<[hidden:1024, batch:64], f32>)

// Names that are not bare identifiers are printed as strings; bare names
// written as strings come back bare.
// CHECK-LABEL: func.func private @quoted_names
// CHECK-SAME: (!tessel.tensor<["my dim":3, "0th":2, plain:1], f32>)
func.func private @quoted_names(!tessel.tensor<["my dim":3, "0th":2, "plain":1], f32>)

// The single axis shorthand `batch = data` prints as a list.
// CHECK-LABEL: func.func private @layouts
// CHECK-SAME: !tessel.tensor<[batch:64, hidden:1024], bf16, #tessel.layout<{batch = [data]}>>
// CHECK-SAME: !tessel.tensor<[batch:64, hidden:1024], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
// CHECK-SAME: !tessel.tensor<[batch:64, hidden:1024], f32, #tessel.layout<{hidden = [data, model]}>>
// CHECK-SAME: !tessel.tensor<[batch:64], f32, #tessel.layout<{}>>
func.func private @layouts(
    !tessel.tensor<[batch:64, hidden:1024], bf16, #tessel.layout<{batch = data}>>,
    !tessel.tensor<[batch:64, hidden:1024], f32, #tessel.layout<{batch = [data], hidden = [model]}>>,
    !tessel.tensor<[batch:64, hidden:1024], f32, #tessel.layout<{hidden = [data, model]}>>,
    !tessel.tensor<[batch:64], f32, #tessel.layout<{}>>)

// The stripped form `<{...}>` parses too.
// CHECK-LABEL: func.func private @stripped_layout
// CHECK-SAME: !tessel.tensor<[batch:64], f32, #tessel.layout<{batch = [data]}>>
func.func private @stripped_layout(!tessel.tensor<[batch:64], f32, <{batch = [data]}>>)
