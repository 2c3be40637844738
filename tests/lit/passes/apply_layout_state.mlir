// RUN: tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/state_logits_override.yaml | FileCheck %s
// RUN: tessel-opt %s --tessel-apply-layout=layout-file=%S/Inputs/state_logits_override.yaml --tessel-partition | FileCheck %s --check-prefix=PART

// State goes round a training loop: a step returns every parameter under its
// argument's name, and must return it with the argument's layout. Here the
// override splits the logits' `classes`, the gradient computed from them
// inherits that split, and so would the update of `w`, whose argument no
// rule splits; the returned `w` keeps the argument's layout instead.
// CHECK-LABEL: func.func @train_step
// CHECK-SAME: (%{{.*}}: !tessel.tensor<[d:4, classes:6], f32> {tessel.name = "w"}
// CHECK-SAME: -> (!tessel.tensor<[d:4, classes:6], f32> {tessel.name = "w"})
// CHECK: tessel.einsum {{.*}} -> !tessel.tensor<[d:4, classes:6], f32, #tessel.layout<{classes = [model]}>>
// CHECK: tessel.sub {{.*}} -> !tessel.tensor<[d:4, classes:6], f32>
// CHECK-NEXT: return

// Each rank returns the whole weight: the partitioned step gathers the
// split gradient before the update.
// PART-LABEL: func.func @train_step
// PART: tessel.all_gather
// PART: tessel.sub {{.*}} -> !tessel.tensor<[d:4, classes:6], f32>
// PART-NEXT: return %{{.*}} : !tessel.tensor<[d:4, classes:6], f32>
func.func @train_step(%w: !tessel.tensor<[d:4, classes:6], f32> {tessel.name = "w"},
                      %x: !tessel.tensor<[b:2, d:4], f32> {tessel.name = "x"})
    -> (!tessel.tensor<[d:4, classes:6], f32> {tessel.name = "w"}) {
  %logits = tessel.einsum %x, %w {tessel.name = "logits"}
      : (!tessel.tensor<[b:2, d:4], f32>, !tessel.tensor<[d:4, classes:6], f32>)
      -> !tessel.tensor<[b:2, classes:6], f32>
  %g = tessel.einsum %x, %logits
      : (!tessel.tensor<[b:2, d:4], f32>, !tessel.tensor<[b:2, classes:6], f32>)
      -> !tessel.tensor<[d:4, classes:6], f32>
  %w2 = tessel.sub %w, %g
      : !tessel.tensor<[d:4, classes:6], f32>, !tessel.tensor<[d:4, classes:6], f32>
      -> !tessel.tensor<[d:4, classes:6], f32>
  return %w2 : !tessel.tensor<[d:4, classes:6], f32>
}
