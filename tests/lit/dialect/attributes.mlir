// Round trip of #tessel.mesh and #tessel.layout, standing alone and as the
// module's `tessel.mesh` attribute.
// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt -mlir-print-op-generic %s | tessel-opt | FileCheck %s

// CHECK: module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>}
module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {
  // CHECK-LABEL: func.func private @meshes
  // CHECK-SAME: one = #tessel.mesh<[x:1]>
  // CHECK-SAME: quoted = #tessel.mesh<["axis 0":2, rows:3]>
  // CHECK-SAME: three = #tessel.mesh<[a:2, b:2, c:2]>
  func.func private @meshes() attributes {
      one = #tessel.mesh<[x:1]>,
      quoted = #tessel.mesh<["axis 0":2, "rows":3]>,
      three = #tessel.mesh<[a:2, b:2, c:2]>}

  // CHECK-LABEL: func.func private @layouts
  // CHECK-SAME: empty = #tessel.layout<{}>
  // CHECK-SAME: multi = #tessel.layout<{hidden = [data, model]}>
  // CHECK-SAME: quoted = #tessel.layout<{"my dim" = ["axis 0"]}>
  // CHECK-SAME: short = #tessel.layout<{batch = [data]}>
  // CHECK-SAME: two = #tessel.layout<{batch = [data], hidden = [model]}>
  func.func private @layouts() attributes {
      empty = #tessel.layout<{}>,
      multi = #tessel.layout<{hidden = [data, model]}>,
      quoted = #tessel.layout<{"my dim" = "axis 0"}>,
      short = #tessel.layout<{batch = data}>,
      two = #tessel.layout<{batch = [data], hidden = [model]}>}
}

// Any op may name its result with the discardable `tessel.name` attribute.
// CHECK-LABEL: func.func @named_result
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4], f32> {tessel.name = "x"})
// CHECK: %[[H:.*]] = tessel.relu %[[X]] {tessel.name = "hidden"} : !tessel.tensor<[batch:4], f32>
// CHECK: return %[[H]]
func.func @named_result(%x: !tessel.tensor<[batch:4], f32> {tessel.name = "x"})
    -> !tessel.tensor<[batch:4], f32> {
  %h = tessel.relu %x {tessel.name = "hidden"} : !tessel.tensor<[batch:4], f32>
  return %h : !tessel.tensor<[batch:4], f32>
}
