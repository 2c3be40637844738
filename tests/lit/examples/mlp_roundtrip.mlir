// The MLP example parses, verifies and round-trips through tessel-opt.
// RUN: tessel-opt %examples/mlp/mlp.mlir | tessel-opt | FileCheck %s
// RUN: tessel-opt -mlir-print-op-generic %examples/mlp/mlp.mlir | tessel-opt | FileCheck %s

// CHECK-LABEL: func.func @forward
// CHECK-SAME: (%[[IMAGES:.*]]: !tessel.tensor<[batch:64, pixels:784], f32> {tessel.name = "images"}, %[[LABELS:.*]]: !tessel.tensor<[batch:64], i32> {tessel.name = "labels"}) -> !tessel.tensor<[], f32>
// CHECK-DAG: %[[W1:.*]] = tessel.parameter "w1" normal scale 5.000000e-02 seed 1 : !tessel.tensor<[pixels:784, hidden:256], f32>
// CHECK-DAG: %[[B1:.*]] = tessel.parameter "b1" zeros
// CHECK-DAG: %[[W2:.*]] = tessel.parameter "w2" normal scale 6.250000e-02 seed 2 : !tessel.tensor<[hidden:256, classes:10], f32>
// CHECK-DAG: %[[B2:.*]] = tessel.parameter "b2" zeros
// CHECK: %[[XW:.*]] = tessel.einsum %[[IMAGES]], %[[W1]] : {{.*}} -> !tessel.tensor<[batch:64, hidden:256], f32>
// CHECK: %[[PRE:.*]] = tessel.add %[[XW]], %[[B1]]
// CHECK: %[[H:.*]] = tessel.relu %[[PRE]] : !tessel.tensor<[batch:64, hidden:256], f32>
// CHECK: %[[HW:.*]] = tessel.einsum %[[H]], %[[W2]] : {{.*}} -> !tessel.tensor<[batch:64, classes:10], f32>
// CHECK: %[[LOGITS:.*]] = tessel.add %[[HW]], %[[B2]]
// CHECK: %[[LOSSES:.*]] = tessel.softmax_cross_entropy %[[LOGITS]], %[[LABELS]] over "classes" : {{.*}} -> !tessel.tensor<[batch:64], f32>
// CHECK: %[[LOSS:.*]] = tessel.reduce mean %[[LOSSES]] : !tessel.tensor<[batch:64], f32> -> !tessel.tensor<[], f32>
// CHECK: return %[[LOSS]] : !tessel.tensor<[], f32>
