// RUN: tessel-opt %s --inline | FileCheck %s
// RUN: tessel-opt %s --inline='default-pipeline=' | FileCheck %s --check-prefix=NOCANON

// The dialect's inliner interface lets upstream's --inline inline calls of
// functions made of tessel ops, a fused op's region included. (Upstream
// knows nothing of tessel.scope; tessel-inline-layers applies scopes.)

// CHECK-LABEL: func.func @forward(
// CHECK-SAME: %[[X:[^:]*]]:
// CHECK-NOT: func.call
// CHECK: %[[W:.*]] = tessel.parameter "w" normal
// CHECK: %[[Y:.*]] = tessel.mul %[[X]], %[[W]]
// CHECK: %[[F:.*]] = tessel.fused %[[Y]]
// CHECK: tessel.relu
// CHECK: tessel.yield
// CHECK: return %[[F]]

// NOCANON-LABEL: func.func @forward(
// NOCANON-NOT: func.call @layer
// NOCANON: tessel.parameter "w"
!v = !tessel.tensor<[d:2], f32>
func.func private @layer(%x: !v) -> !v {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !v
  %y = tessel.mul %x, %w : !v, !v -> !v
  %f = tessel.fused %y : (!v) -> !v {
  ^bb0(%a: !v):
    %r = tessel.relu %a : !v
    tessel.yield %r : !v
  }
  return %f : !v
}
func.func @forward(%x: !v) -> !v {
  %y = func.call @layer(%x) {tessel.scope = "block0"} : (!v) -> !v
  return %y : !v
}
