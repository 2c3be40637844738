// RUN: tessel-opt %s --tessel-autodiff | FileCheck %s
// RUN: tessel-opt %s --tessel-autodiff=optimizer=adam | FileCheck %s --check-prefix=ADAM

// A tied weight: two tessel.parameter ops with the full name "tied" (as two
// layers without a scope, or an embedding and its unembedding, leave after
// tessel-inline-layers) are one weight. It is one argument of the step and
// one result of @init, and its gradient is the sum of both uses' (here
// l = sum(x * e * e): dl/de = x * e + x * e).

// CHECK-LABEL: func.func @train_step(
// CHECK-SAME: %[[E:[^:]*]]: !tessel.tensor<[d:3], f32> {tessel.name = "tied", tessel.role = "parameter"},
// CHECK-SAME: %[[X:[^:]*]]: !tessel.tensor<[d:3], f32> {tessel.name = "x"},
// CHECK-SAME: %[[LR:[^:]*]]: !tessel.tensor<[], f32> {tessel.name = "learning_rate"})
// CHECK-SAME: -> (!tessel.tensor<[d:3], f32> {tessel.name = "tied"}, !tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "gradient_norm"})
// CHECK-NOT: tessel.parameter
// CHECK: %[[A:.*]] = tessel.mul %[[X]], %[[E]]
// CHECK: %[[B:.*]] = tessel.mul %[[A]], %[[E]]
// The two uses' gradients add up into the one weight's.
// CHECK-DAG: %[[DA:.*]] = tessel.mul %{{.*}}, %[[E]]
// CHECK-DAG: %[[G2:.*]] = tessel.mul %{{.*}}, %[[A]]
// CHECK: %[[G1:.*]] = tessel.mul %[[DA]], %[[X]]
// CHECK: %[[G:.*]] = tessel.add %[[G2]], %[[G1]]
// CHECK: %[[STEP:.*]] = tessel.mul %[[G]], %[[LR]]
// CHECK: %[[NEW:.*]] = tessel.sub %[[E]], %[[STEP]]
// CHECK: return %[[NEW]], %{{.*}} :
// The evaluation takes the weight once too.
// CHECK-LABEL: func.func @evaluate(
// CHECK-SAME: {tessel.name = "tied", tessel.role = "parameter"}, %{{[^:]*}}: !tessel.tensor<[d:3], f32> {tessel.name = "x"})
// CHECK-NOT: tessel.parameter
// CHECK: %[[T:.*]] = tessel.add %[[P:.*]], %[[P]]
// CHECK-LABEL: func.func @init()
// CHECK-SAME: -> (!tessel.tensor<[d:3], f32> {tessel.name = "tied"})
// CHECK: tessel.parameter "tied" normal scale 5.000000e-01 seed 2
// CHECK-NOT: tessel.parameter
// CHECK: return


// One optimizer state per weight, not per declaration.
// ADAM-LABEL: func.func @train_step(
// ADAM-SAME: %arg0: !tessel.tensor<[d:3], f32> {tessel.name = "tied", tessel.role = "parameter"}, %arg1: !tessel.tensor<[d:3], f32> {tessel.name = "tied.adam_m", tessel.role = "optimizer_state"}, %arg2: !tessel.tensor<[d:3], f32> {tessel.name = "tied.adam_v", tessel.nonnegative, tessel.role = "optimizer_state"}, %arg3: !tessel.tensor<[], f32> {tessel.name = "step", tessel.nonnegative, tessel.role = "optimizer_state"}, %arg4: !tessel.tensor<[d:3], f32> {tessel.name = "x"}
// ADAM-LABEL: func.func @init()
// ADAM-SAME: -> (!tessel.tensor<[d:3], f32> {tessel.name = "tied"}, !tessel.tensor<[d:3], f32> {tessel.name = "tied.adam_m"}, !tessel.tensor<[d:3], f32> {tessel.name = "tied.adam_v"}, !tessel.tensor<[], f32> {tessel.name = "step"})

!v = !tessel.tensor<[d:3], f32>
func.func @forward(%x: !v {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %e1 = tessel.parameter "tied" normal scale 0.5 seed 2 : !v
  %a = tessel.mul %x, %e1 : !v, !v -> !v
  %e2 = tessel.parameter "tied" normal scale 0.5 seed 2 : !v
  %b = tessel.mul %a, %e2 : !v, !v -> !v
  %l = tessel.reduce sum %b : !v -> !tessel.tensor<[], f32>
  return %l : !tessel.tensor<[], f32>
}

func.func @evaluate(%x: !v {tessel.name = "x"}) -> !v {
  %e1 = tessel.parameter "tied" normal scale 0.5 seed 2 : !v
  %e2 = tessel.parameter "tied" normal scale 0.5 seed 2 : !v
  %b = tessel.add %e1, %e2 : !v, !v -> !v
  %c = tessel.mul %x, %b : !v, !v -> !v
  return %c : !v
}
