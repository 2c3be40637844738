// RUN: tessel-opt %s --tessel-apply-layout="mesh=data:2;model:4 rules=batch:data;hidden:model" | FileCheck %s

// Rules split every tensor's dimensions by name; unnamed dimensions stay
// replicated, and the function signature follows.
// CHECK: module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>}
// CHECK-LABEL: func.func @dense
// CHECK-SAME: (%{{.*}}: !tessel.tensor<[batch:8, in:4], f32, #tessel.layout<{batch = [data]}>>)
// CHECK-SAME: -> !tessel.tensor<[batch:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
// CHECK: tessel.parameter "w" {{.*}} : !tessel.tensor<[in:4, hidden:16], f32, #tessel.layout<{hidden = [model]}>>
// CHECK: tessel.einsum {{.*}} -> !tessel.tensor<[batch:8, hidden:16], f32, #tessel.layout<{batch = [data], hidden = [model]}>>
func.func @dense(%x: !tessel.tensor<[batch:8, in:4], f32>) -> !tessel.tensor<[batch:8, hidden:16], f32> {
  %w = tessel.parameter "w" normal scale 1.0 seed 1 : !tessel.tensor<[in:4, hidden:16], f32>
  %y = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, in:4], f32>, !tessel.tensor<[in:4, hidden:16], f32>)
      -> !tessel.tensor<[batch:8, hidden:16], f32>
  return %y : !tessel.tensor<[batch:8, hidden:16], f32>
}


// RUN: tessel-opt %s --tessel-apply-layout="mesh=data:2;model:4 rules=batch:data,model" | FileCheck %s --check-prefix=MULTI
// One dimension over two axes, outermost first.
// MULTI-LABEL: func.func @dense
// MULTI-SAME: !tessel.tensor<[batch:8, in:4], f32, #tessel.layout<{batch = [data, model]}>>
