// Round trip of every model-level op through the custom assembly format, and
// a second round trip through the generic form.
// RUN: tessel-opt %s | tessel-opt | FileCheck %s
// RUN: tessel-opt -mlir-print-op-generic %s | tessel-opt | FileCheck %s

//===----------------------------------------------------------------------===//
// Sources
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @parameters
func.func @parameters() -> (!tessel.tensor<[pixels:784, hidden:256], f32>,
                            !tessel.tensor<[hidden:256], bf16>,
                            !tessel.tensor<[hidden:256], f16>,
                            !tessel.tensor<[k:3], f64>) {
  // CHECK: %[[W:.*]] = tessel.parameter "w1" normal scale 2.000000e-02 seed 1 : !tessel.tensor<[pixels:784, hidden:256], f32>
  %w = tessel.parameter "w1" normal scale 0.02 seed 1
      : !tessel.tensor<[pixels:784, hidden:256], f32>
  // CHECK: %[[B:.*]] = tessel.parameter "b1" zeros scale 1.000000e+00 seed 0 : !tessel.tensor<[hidden:256], bf16>
  %b = tessel.parameter "b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[hidden:256], bf16>
  // CHECK: %[[G:.*]] = tessel.parameter "gamma" ones scale 1.000000e+00 seed 0 : !tessel.tensor<[hidden:256], f16>
  %g = tessel.parameter "gamma" ones scale 1.0 seed 0
      : !tessel.tensor<[hidden:256], f16>
  // CHECK: %[[U:.*]] = tessel.parameter "u" uniform scale 5.000000e-01 seed 42 : !tessel.tensor<[k:3], f64>
  %u = tessel.parameter "u" uniform scale 0.5 seed 42 : !tessel.tensor<[k:3], f64>
  // CHECK: return %[[W]], %[[B]], %[[G]], %[[U]]
  return %w, %b, %g, %u : !tessel.tensor<[pixels:784, hidden:256], f32>,
      !tessel.tensor<[hidden:256], bf16>, !tessel.tensor<[hidden:256], f16>,
      !tessel.tensor<[k:3], f64>
}

// CHECK-LABEL: func.func @constants
func.func @constants() -> (!tessel.tensor<[], f32>, !tessel.tensor<[a:2, b:3], i32>,
                           !tessel.tensor<[i:2, j:2], f32>, !tessel.tensor<[k:2], i1>) {
  // CHECK: %[[F:.*]] = tessel.constant 5.000000e-01 : f32 -> !tessel.tensor<[], f32>
  %f = tessel.constant 0.5 : f32 -> !tessel.tensor<[], f32>
  // CHECK: %[[I:.*]] = tessel.constant 7 : i32 -> !tessel.tensor<[a:2, b:3], i32>
  %i = tessel.constant 7 : i32 -> !tessel.tensor<[a:2, b:3], i32>
  // CHECK: %[[D:.*]] = tessel.constant dense<{{\[}}[1.000000e+00, 2.000000e+00], [3.000000e+00, 4.000000e+00]]> : tensor<2x2xf32> -> !tessel.tensor<[i:2, j:2], f32>
  %d = tessel.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
      -> !tessel.tensor<[i:2, j:2], f32>
  // CHECK: %[[M:.*]] = tessel.constant dense<[true, false]> : tensor<2xi1> -> !tessel.tensor<[k:2], i1>
  %m = tessel.constant dense<[true, false]> : tensor<2xi1> -> !tessel.tensor<[k:2], i1>
  // CHECK: return %[[F]], %[[I]], %[[D]], %[[M]]
  return %f, %i, %d, %m : !tessel.tensor<[], f32>, !tessel.tensor<[a:2, b:3], i32>,
      !tessel.tensor<[i:2, j:2], f32>, !tessel.tensor<[k:2], i1>
}

// CHECK-LABEL: func.func @iota
func.func @iota() -> !tessel.tensor<[seq:8, key:8], i32> {
  // CHECK: %[[Q:.*]] = tessel.iota "seq" : !tessel.tensor<[seq:8, key:8], i32>
  %q = tessel.iota "seq" : !tessel.tensor<[seq:8, key:8], i32>
  // CHECK: return %[[Q]]
  return %q : !tessel.tensor<[seq:8, key:8], i32>
}

//===----------------------------------------------------------------------===//
// Contraction
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @einsum_matmul
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:64, pixels:784], f32>, %[[W:.*]]: !tessel.tensor<[pixels:784, hidden:256], f32>)
func.func @einsum_matmul(%x: !tessel.tensor<[batch:64, pixels:784], f32>,
                         %w: !tessel.tensor<[pixels:784, hidden:256], f32>)
    -> !tessel.tensor<[batch:64, hidden:256], f32> {
  // CHECK: %[[H:.*]] = tessel.einsum %[[X]], %[[W]] : (!tessel.tensor<[batch:64, pixels:784], f32>, !tessel.tensor<[pixels:784, hidden:256], f32>) -> !tessel.tensor<[batch:64, hidden:256], f32>
  %h = tessel.einsum %x, %w
      : (!tessel.tensor<[batch:64, pixels:784], f32>,
         !tessel.tensor<[pixels:784, hidden:256], f32>)
      -> !tessel.tensor<[batch:64, hidden:256], f32>
  // CHECK: return %[[H]]
  return %h : !tessel.tensor<[batch:64, hidden:256], f32>
}

// CHECK-LABEL: func.func @einsum_batched
// CHECK-SAME: (%[[Q:.*]]: !tessel.tensor<[batch:2, heads:4, seq:8, head_dim:16], f32>, %[[K:.*]]: !tessel.tensor<[batch:2, heads:4, key:8, head_dim:16], f32>)
func.func @einsum_batched(%q: !tessel.tensor<[batch:2, heads:4, seq:8, head_dim:16], f32>,
                          %k: !tessel.tensor<[batch:2, heads:4, key:8, head_dim:16], f32>)
    -> !tessel.tensor<[batch:2, heads:4, seq:8, key:8], f32> {
  // CHECK: %[[S:.*]] = tessel.einsum %[[Q]], %[[K]] : {{.*}} -> !tessel.tensor<[batch:2, heads:4, seq:8, key:8], f32>
  %s = tessel.einsum %q, %k
      : (!tessel.tensor<[batch:2, heads:4, seq:8, head_dim:16], f32>,
         !tessel.tensor<[batch:2, heads:4, key:8, head_dim:16], f32>)
      -> !tessel.tensor<[batch:2, heads:4, seq:8, key:8], f32>
  // CHECK: return %[[S]]
  return %s : !tessel.tensor<[batch:2, heads:4, seq:8, key:8], f32>
}

// CHECK-LABEL: func.func @einsum_three_inputs
// CHECK-SAME: (%[[A:.*]]: !tessel.tensor<[i:2, j:3], f32>, %[[B:.*]]: !tessel.tensor<[j:3, k:4], f32>, %[[C:.*]]: !tessel.tensor<[k:4, l:5], f32>)
func.func @einsum_three_inputs(%a: !tessel.tensor<[i:2, j:3], f32>,
                               %b: !tessel.tensor<[j:3, k:4], f32>,
                               %c: !tessel.tensor<[k:4, l:5], f32>)
    -> !tessel.tensor<[l:5, i:2], f32> {
  // CHECK: %[[R:.*]] = tessel.einsum %[[A]], %[[B]], %[[C]] : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:4], f32>, !tessel.tensor<[k:4, l:5], f32>) -> !tessel.tensor<[l:5, i:2], f32>
  %r = tessel.einsum %a, %b, %c
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, k:4], f32>,
         !tessel.tensor<[k:4, l:5], f32>)
      -> !tessel.tensor<[l:5, i:2], f32>
  // CHECK: return %[[R]]
  return %r : !tessel.tensor<[l:5, i:2], f32>
}

// CHECK-LABEL: func.func @einsum_to_scalar
// CHECK-SAME: (%[[A:.*]]: !tessel.tensor<[i:2, j:3], f32>, %[[B:.*]]: !tessel.tensor<[j:3, i:2], f32>)
func.func @einsum_to_scalar(%a: !tessel.tensor<[i:2, j:3], f32>,
                            %b: !tessel.tensor<[j:3, i:2], f32>) -> !tessel.tensor<[], f32> {
  // CHECK: %[[R:.*]] = tessel.einsum %[[A]], %[[B]] : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, i:2], f32>) -> !tessel.tensor<[], f32>
  %r = tessel.einsum %a, %b
      : (!tessel.tensor<[i:2, j:3], f32>, !tessel.tensor<[j:3, i:2], f32>)
      -> !tessel.tensor<[], f32>
  // CHECK: return %[[R]]
  return %r : !tessel.tensor<[], f32>
}

//===----------------------------------------------------------------------===//
// Element-wise ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @unary
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, hidden:8], f32>, %[[N:.*]]: !tessel.tensor<[k:3], i32>)
func.func @unary(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                 %n: !tessel.tensor<[k:3], i32>)
    -> (!tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[k:3], i32>) {
  // CHECK: %[[NEG:.*]] = tessel.neg %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32>
  %0 = tessel.neg %x : !tessel.tensor<[batch:4, hidden:8], f32>
  // CHECK: %[[ABS:.*]] = tessel.abs %[[NEG]] : !tessel.tensor<[batch:4, hidden:8], f32>
  %1 = tessel.abs %0 : !tessel.tensor<[batch:4, hidden:8], f32>
  // CHECK: %[[EXP:.*]] = tessel.exp %[[ABS]] : !tessel.tensor<[batch:4, hidden:8], f32>
  %2 = tessel.exp %1 : !tessel.tensor<[batch:4, hidden:8], f32>
  // CHECK: %[[LOG:.*]] = tessel.log %[[EXP]] : !tessel.tensor<[batch:4, hidden:8], f32>
  %3 = tessel.log %2 : !tessel.tensor<[batch:4, hidden:8], f32>
  // CHECK: %[[SQRT:.*]] = tessel.sqrt %[[LOG]] : !tessel.tensor<[batch:4, hidden:8], f32>
  %4 = tessel.sqrt %3 : !tessel.tensor<[batch:4, hidden:8], f32>
  // CHECK: %[[RSQRT:.*]] = tessel.rsqrt %[[SQRT]] : !tessel.tensor<[batch:4, hidden:8], f32>
  %5 = tessel.rsqrt %4 : !tessel.tensor<[batch:4, hidden:8], f32>
  // CHECK: %[[TANH:.*]] = tessel.tanh %[[RSQRT]] : !tessel.tensor<[batch:4, hidden:8], f32>
  %6 = tessel.tanh %5 : !tessel.tensor<[batch:4, hidden:8], f32>
  // CHECK: %[[SIG:.*]] = tessel.sigmoid %[[TANH]] : !tessel.tensor<[batch:4, hidden:8], f32>
  %7 = tessel.sigmoid %6 : !tessel.tensor<[batch:4, hidden:8], f32>
  // CHECK: %[[RELU:.*]] = tessel.relu %[[SIG]] : !tessel.tensor<[batch:4, hidden:8], f32>
  %8 = tessel.relu %7 : !tessel.tensor<[batch:4, hidden:8], f32>
  // CHECK: %[[GELU:.*]] = tessel.gelu %[[RELU]] : !tessel.tensor<[batch:4, hidden:8], f32>
  %9 = tessel.gelu %8 : !tessel.tensor<[batch:4, hidden:8], f32>
  // neg, abs and relu also accept integers.
  // CHECK: %[[INEG:.*]] = tessel.neg %[[N]] : !tessel.tensor<[k:3], i32>
  %10 = tessel.neg %n : !tessel.tensor<[k:3], i32>
  // CHECK: %[[IABS:.*]] = tessel.abs %[[INEG]] : !tessel.tensor<[k:3], i32>
  %11 = tessel.abs %10 : !tessel.tensor<[k:3], i32>
  // CHECK: %[[IRELU:.*]] = tessel.relu %[[IABS]] : !tessel.tensor<[k:3], i32>
  %12 = tessel.relu %11 : !tessel.tensor<[k:3], i32>
  // CHECK: return %[[GELU]], %[[IRELU]]
  return %9, %12 : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[k:3], i32>
}

// sin and cos (rotary position embeddings) take floats only.
// CHECK-LABEL: func.func @trigonometric
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[seq:8, rot:4], f32>)
func.func @trigonometric(%x: !tessel.tensor<[seq:8, rot:4], f32>)
    -> !tessel.tensor<[seq:8, rot:4], f32> {
  // CHECK: %[[SIN:.*]] = tessel.sin %[[X]] : !tessel.tensor<[seq:8, rot:4], f32>
  %0 = tessel.sin %x : !tessel.tensor<[seq:8, rot:4], f32>
  // CHECK: %[[COS:.*]] = tessel.cos %[[SIN]] : !tessel.tensor<[seq:8, rot:4], f32>
  %1 = tessel.cos %0 : !tessel.tensor<[seq:8, rot:4], f32>
  // CHECK: return %[[COS]]
  return %1 : !tessel.tensor<[seq:8, rot:4], f32>
}

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, hidden:8], f32>, %[[B:.*]]: !tessel.tensor<[hidden:8], f32>, %[[C:.*]]: !tessel.tensor<[batch:4], f32>, %[[S:.*]]: !tessel.tensor<[], f32>, %[[T:.*]]: !tessel.tensor<[hidden:8, batch:4], f32>)
func.func @binary(%x: !tessel.tensor<[batch:4, hidden:8], f32>,
                  %b: !tessel.tensor<[hidden:8], f32>,
                  %c: !tessel.tensor<[batch:4], f32>,
                  %s: !tessel.tensor<[], f32>,
                  %t: !tessel.tensor<[hidden:8, batch:4], f32>)
    -> !tessel.tensor<[hidden:8, batch:4], f32> {
  // Broadcast the second operand over the leading dimension.
  // CHECK: %[[ADD:.*]] = tessel.add %[[X]], %[[B]] : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
  %0 = tessel.add %x, %b
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:8], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32>
  // Broadcast the first operand over the trailing dimension.
  // CHECK: %[[SUB:.*]] = tessel.sub %[[C]], %[[ADD]] : !tessel.tensor<[batch:4], f32>, !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32>
  %1 = tessel.sub %c, %0
      : !tessel.tensor<[batch:4], f32>, !tessel.tensor<[batch:4, hidden:8], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32>
  // Both operands broadcast into an outer product.
  // CHECK: %[[MUL:.*]] = tessel.mul %[[B]], %[[C]] : !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  %2 = tessel.mul %b, %c
      : !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[batch:4], f32>
      -> !tessel.tensor<[hidden:8, batch:4], f32>
  // Operands whose dimensions are in different orders.
  // CHECK: %[[DIV:.*]] = tessel.div %[[SUB]], %[[MUL]] : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:8, batch:4], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  %3 = tessel.div %1, %2
      : !tessel.tensor<[batch:4, hidden:8], f32>, !tessel.tensor<[hidden:8, batch:4], f32>
      -> !tessel.tensor<[hidden:8, batch:4], f32>
  // A scalar broadcast over everything.
  // CHECK: %[[MAX:.*]] = tessel.max %[[DIV]], %[[S]] : !tessel.tensor<[hidden:8, batch:4], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  %4 = tessel.max %3, %s
      : !tessel.tensor<[hidden:8, batch:4], f32>, !tessel.tensor<[], f32>
      -> !tessel.tensor<[hidden:8, batch:4], f32>
  // CHECK: %[[MIN:.*]] = tessel.min %[[S]], %[[MAX]] : !tessel.tensor<[], f32>, !tessel.tensor<[hidden:8, batch:4], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  %5 = tessel.min %s, %4
      : !tessel.tensor<[], f32>, !tessel.tensor<[hidden:8, batch:4], f32>
      -> !tessel.tensor<[hidden:8, batch:4], f32>
  // CHECK: %[[POW:.*]] = tessel.pow %[[MIN]], %[[T]] : !tessel.tensor<[hidden:8, batch:4], f32>, !tessel.tensor<[hidden:8, batch:4], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  %6 = tessel.pow %5, %t
      : !tessel.tensor<[hidden:8, batch:4], f32>, !tessel.tensor<[hidden:8, batch:4], f32>
      -> !tessel.tensor<[hidden:8, batch:4], f32>
  // CHECK: return %[[POW]]
  return %6 : !tessel.tensor<[hidden:8, batch:4], f32>
}

// CHECK-LABEL: func.func @compare
// CHECK-SAME: (%[[Q:.*]]: !tessel.tensor<[seq:8], i32>, %[[K:.*]]: !tessel.tensor<[key:8], i32>)
func.func @compare(%q: !tessel.tensor<[seq:8], i32>, %k: !tessel.tensor<[key:8], i32>)
    -> (!tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[seq:8, key:8], i1>,
        !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[key:8, seq:8], i1>,
        !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[seq:8, key:8], i1>) {
  // CHECK: %[[EQ:.*]] = tessel.compare eq, %[[Q]], %[[K]] : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32> -> !tessel.tensor<[seq:8, key:8], i1>
  %eq = tessel.compare eq, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  // CHECK: %[[NE:.*]] = tessel.compare ne, %[[Q]], %[[K]]
  %ne = tessel.compare ne, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  // CHECK: %[[LT:.*]] = tessel.compare lt, %[[Q]], %[[K]]
  %lt = tessel.compare lt, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  // CHECK: %[[LE:.*]] = tessel.compare le, %[[K]], %[[Q]] : !tessel.tensor<[key:8], i32>, !tessel.tensor<[seq:8], i32> -> !tessel.tensor<[key:8, seq:8], i1>
  %le = tessel.compare le, %k, %q : !tessel.tensor<[key:8], i32>, !tessel.tensor<[seq:8], i32>
      -> !tessel.tensor<[key:8, seq:8], i1>
  // CHECK: %[[GT:.*]] = tessel.compare gt, %[[Q]], %[[K]]
  %gt = tessel.compare gt, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  // CHECK: %[[GE:.*]] = tessel.compare ge, %[[Q]], %[[K]]
  %ge = tessel.compare ge, %q, %k : !tessel.tensor<[seq:8], i32>, !tessel.tensor<[key:8], i32>
      -> !tessel.tensor<[seq:8, key:8], i1>
  // CHECK: return %[[EQ]], %[[NE]], %[[LT]], %[[LE]], %[[GT]], %[[GE]]
  return %eq, %ne, %lt, %le, %gt, %ge
      : !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[seq:8, key:8], i1>,
        !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[key:8, seq:8], i1>,
        !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[seq:8, key:8], i1>
}

// CHECK-LABEL: func.func @select
// CHECK-SAME: (%[[M:.*]]: !tessel.tensor<[seq:8, key:8], i1>, %[[S:.*]]: !tessel.tensor<[heads:2, seq:8, key:8], f32>)
func.func @select(%mask: !tessel.tensor<[seq:8, key:8], i1>,
                  %scores: !tessel.tensor<[heads:2, seq:8, key:8], f32>)
    -> !tessel.tensor<[heads:2, seq:8, key:8], f32> {
  // CHECK: %[[NEG:.*]] = tessel.constant -1.000000e+09 : f32 -> !tessel.tensor<[], f32>
  %neg = tessel.constant -1.0e9 : f32 -> !tessel.tensor<[], f32>
  // CHECK: %[[R:.*]] = tessel.select %[[M]], %[[S]], %[[NEG]] : !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[heads:2, seq:8, key:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[heads:2, seq:8, key:8], f32>
  %r = tessel.select %mask, %scores, %neg
      : !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[heads:2, seq:8, key:8], f32>,
        !tessel.tensor<[], f32> -> !tessel.tensor<[heads:2, seq:8, key:8], f32>
  // CHECK: return %[[R]]
  return %r : !tessel.tensor<[heads:2, seq:8, key:8], f32>
}

// CHECK-LABEL: func.func @cast
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4], f32>, %[[N:.*]]: !tessel.tensor<[batch:4], i32>)
func.func @cast(%x: !tessel.tensor<[batch:4], f32>, %n: !tessel.tensor<[batch:4], i32>)
    -> (!tessel.tensor<[batch:4], bf16>, !tessel.tensor<[batch:4], f16>,
        !tessel.tensor<[batch:4], f32>) {
  // CHECK: %[[BF:.*]] = tessel.cast %[[X]] : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:4], bf16>
  %bf = tessel.cast %x : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:4], bf16>
  // CHECK: %[[H:.*]] = tessel.cast %[[X]] : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:4], f16>
  %h = tessel.cast %x : !tessel.tensor<[batch:4], f32> -> !tessel.tensor<[batch:4], f16>
  // CHECK: %[[F:.*]] = tessel.cast %[[N]] : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4], f32>
  %f = tessel.cast %n : !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4], f32>
  // CHECK: return %[[BF]], %[[H]], %[[F]]
  return %bf, %h, %f : !tessel.tensor<[batch:4], bf16>, !tessel.tensor<[batch:4], f16>,
      !tessel.tensor<[batch:4], f32>
}

//===----------------------------------------------------------------------===//
// Reductions and normalisations
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @reduce
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, hidden:8], f32>)
func.func @reduce(%x: !tessel.tensor<[batch:4, hidden:8], f32>)
    -> (!tessel.tensor<[batch:4], f32>, !tessel.tensor<[], f32>,
        !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[batch:4], f32>,
        !tessel.tensor<[hidden:8, batch:4], f32>) {
  // CHECK: %[[SUM:.*]] = tessel.reduce sum %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4], f32>
  %sum = tessel.reduce sum %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4], f32>
  // CHECK: %[[MEAN:.*]] = tessel.reduce mean %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[], f32>
  %mean = tessel.reduce mean %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[], f32>
  // CHECK: %[[MAX:.*]] = tessel.reduce max %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8], f32>
  %max = tessel.reduce max %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8], f32>
  // CHECK: %[[MIN:.*]] = tessel.reduce min %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4], f32>
  %min = tessel.reduce min %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4], f32>
  // Reducing over nothing is allowed, in any order.
  // CHECK: %[[PROD:.*]] = tessel.reduce prod %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  %prod = tessel.reduce prod %x : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[hidden:8, batch:4], f32>
  // CHECK: return %[[SUM]], %[[MEAN]], %[[MAX]], %[[MIN]], %[[PROD]]
  return %sum, %mean, %max, %min, %prod
      : !tessel.tensor<[batch:4], f32>, !tessel.tensor<[], f32>,
        !tessel.tensor<[hidden:8], f32>, !tessel.tensor<[batch:4], f32>,
        !tessel.tensor<[hidden:8, batch:4], f32>
}

// CHECK-LABEL: func.func @normalisations
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, vocab:10], f32>, %[[L:.*]]: !tessel.tensor<[batch:4], i32>)
func.func @normalisations(%x: !tessel.tensor<[batch:4, vocab:10], f32>,
                          %labels: !tessel.tensor<[batch:4], i32>)
    -> (!tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], f32>,
        !tessel.tensor<[batch:4, vocab:10], f32>) {
  // CHECK: %[[SM:.*]] = tessel.softmax %[[X]] over "vocab" : !tessel.tensor<[batch:4, vocab:10], f32>
  %sm = tessel.softmax %x over "vocab" : !tessel.tensor<[batch:4, vocab:10], f32>
  // CHECK: %[[LSM:.*]] = tessel.log_softmax %[[SM]] over "vocab" : !tessel.tensor<[batch:4, vocab:10], f32>
  %lsm = tessel.log_softmax %sm over "vocab" : !tessel.tensor<[batch:4, vocab:10], f32>
  // CHECK: %[[CE:.*]] = tessel.softmax_cross_entropy %[[LSM]], %[[L]] over "vocab" : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4], f32>
  %ce = tessel.softmax_cross_entropy %lsm, %labels over "vocab"
      : !tessel.tensor<[batch:4, vocab:10], f32>, !tessel.tensor<[batch:4], i32>
      -> !tessel.tensor<[batch:4], f32>
  // CHECK: %[[LN:.*]] = tessel.layer_norm %[[X]] over ["vocab"] epsilon 1.000000e-05 : !tessel.tensor<[batch:4, vocab:10], f32>
  %ln = tessel.layer_norm %x over ["vocab"] epsilon 1.0e-05
      : !tessel.tensor<[batch:4, vocab:10], f32>
  // CHECK: %[[LN2:.*]] = tessel.layer_norm %[[LN]] over ["batch", "vocab"] epsilon 1.000000e-03 : !tessel.tensor<[batch:4, vocab:10], f32>
  %ln2 = tessel.layer_norm %ln over ["batch", "vocab"] epsilon 1.0e-03
      : !tessel.tensor<[batch:4, vocab:10], f32>
  // CHECK: return %[[SM]], %[[CE]], %[[LN2]]
  return %sm, %ce, %ln2 : !tessel.tensor<[batch:4, vocab:10], f32>,
      !tessel.tensor<[batch:4], f32>, !tessel.tensor<[batch:4, vocab:10], f32>
}

//===----------------------------------------------------------------------===//
// Convolution and pooling
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @scans
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, seq:8], f32>, %[[N:.*]]: !tessel.tensor<[seq:8, batch:4], i32>)
func.func @scans(%x: !tessel.tensor<[batch:4, seq:8], f32>,
                 %n: !tessel.tensor<[seq:8, batch:4], i32>)
    -> (!tessel.tensor<[batch:4, seq:8], f32>, !tessel.tensor<[seq:8, batch:4], i32>,
        !tessel.tensor<[batch:4], i32>, !tessel.tensor<[batch:4], i64>) {
  // CHECK: %[[C:.*]] = tessel.cumsum %[[X]] over "seq" : !tessel.tensor<[batch:4, seq:8], f32>
  %0 = tessel.cumsum %x over "seq" : !tessel.tensor<[batch:4, seq:8], f32>
  // CHECK: %[[R:.*]] = tessel.cumsum %[[C]] over "batch" reverse : !tessel.tensor<[batch:4, seq:8], f32>
  %1 = tessel.cumsum %0 over "batch" reverse : !tessel.tensor<[batch:4, seq:8], f32>
  // Integers sum too.
  // CHECK: %[[I:.*]] = tessel.cumsum %[[N]] over "seq" : !tessel.tensor<[seq:8, batch:4], i32>
  %2 = tessel.cumsum %n over "seq" : !tessel.tensor<[seq:8, batch:4], i32>
  // CHECK: %[[A:.*]] = tessel.argmax %[[R]] over "seq" : !tessel.tensor<[batch:4, seq:8], f32> -> !tessel.tensor<[batch:4], i32>
  %3 = tessel.argmax %1 over "seq"
      : !tessel.tensor<[batch:4, seq:8], f32> -> !tessel.tensor<[batch:4], i32>
  // CHECK: %[[B:.*]] = tessel.argmax %[[I]] over "seq" : !tessel.tensor<[seq:8, batch:4], i32> -> !tessel.tensor<[batch:4], i64>
  %4 = tessel.argmax %2 over "seq"
      : !tessel.tensor<[seq:8, batch:4], i32> -> !tessel.tensor<[batch:4], i64>
  // CHECK: return %[[R]], %[[I]], %[[A]], %[[B]]
  return %1, %2, %3, %4 : !tessel.tensor<[batch:4, seq:8], f32>, !tessel.tensor<[seq:8, batch:4], i32>,
                          !tessel.tensor<[batch:4], i32>, !tessel.tensor<[batch:4], i64>
}

// CHECK-LABEL: func.func @top_k
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[tokens:6, experts:4], f32>)
func.func @top_k(%x: !tessel.tensor<[tokens:6, experts:4], f32>)
    -> (!tessel.tensor<[tokens:6, choice:2], f32>, !tessel.tensor<[tokens:6, choice:2], i32>,
        !tessel.tensor<[best:4, experts:4], i64>) {
  // CHECK: %[[V:.*]] = tessel.top_k %[[X]] over "experts" k 2 as "choice" : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:2], f32>
  %0 = tessel.top_k %x over "experts" k 2 as "choice"
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:2], f32>
  // CHECK: %[[I:.*]] = tessel.top_k %[[X]] over "experts" k 2 as "choice" indices : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:2], i32>
  %1 = tessel.top_k %x over "experts" k 2 as "choice" indices
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[tokens:6, choice:2], i32>
  // The result may list its dims in another order.
  // CHECK: %[[T:.*]] = tessel.top_k %[[X]] over "tokens" k 4 as "best" indices : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[best:4, experts:4], i64>
  %2 = tessel.top_k %x over "tokens" k 4 as "best" indices
      : !tessel.tensor<[tokens:6, experts:4], f32> -> !tessel.tensor<[best:4, experts:4], i64>
  // CHECK: return %[[V]], %[[I]], %[[T]]
  return %0, %1, %2 : !tessel.tensor<[tokens:6, choice:2], f32>, !tessel.tensor<[tokens:6, choice:2], i32>,
                      !tessel.tensor<[best:4, experts:4], i64>
}

// CHECK-LABEL: func.func @conv2d
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>, %[[K:.*]]: !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>)
func.func @conv2d(%x: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>,
                  %k: !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>)
    -> (!tessel.tensor<[batch:8, f:16, h:28, w:28], f32>,
        !tessel.tensor<[f:16, batch:8, h:13, w:13], f32>) {
  // "Same" padding with the default strides and dilations.
  // CHECK: %[[SAME:.*]] = tessel.conv2d %[[X]], %[[K]] {input_channel = "c", kernel = ["kh", "kw"], output_channel = "f", padding = array<i64: 1, 1, 1, 1>, spatial = ["h", "w"]} : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>, !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32> -> !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
  %same = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                                spatial = ["h", "w"], kernel = ["kh", "kw"],
                                padding = array<i64: 1, 1, 1, 1>}
      : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>,
        !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
      -> !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
  // Dilation 2 stretches the 3-wide kernel to 5, so with stride 2
  // h is (28 + 2 + 0 - 5) / 2 + 1 = 13 and w is (28 + 0 + 1 - 5) / 2 + 1 = 13.
  // CHECK: %[[STRIDED:.*]] = tessel.conv2d %[[X]], %[[K]] {dilations = array<i64: 2, 2>, input_channel = "c", kernel = ["kh", "kw"], output_channel = "f", padding = array<i64: 2, 0, 0, 1>, spatial = ["h", "w"], strides = array<i64: 2, 2>} : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>, !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32> -> !tessel.tensor<[f:16, batch:8, h:13, w:13], f32>
  %strided = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                                   spatial = ["h", "w"], kernel = ["kh", "kw"],
                                   padding = array<i64: 2, 0, 0, 1>,
                                   strides = array<i64: 2, 2>,
                                   dilations = array<i64: 2, 2>}
      : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>,
        !tessel.tensor<[c:1, f:16, kh:3, kw:3], f32>
      -> !tessel.tensor<[f:16, batch:8, h:13, w:13], f32>
  // CHECK: return %[[SAME]], %[[STRIDED]]
  return %same, %strided : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>,
      !tessel.tensor<[f:16, batch:8, h:13, w:13], f32>
}

// CHECK-LABEL: func.func @pool
// CHECK-SAME: (%[[Y:.*]]: !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>)
func.func @pool(%y: !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>)
    -> (!tessel.tensor<[batch:8, f:16, h:14, w:14], f32>,
        !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>) {
  // CHECK: %[[MAX:.*]] = tessel.pool max %[[Y]] {spatial = ["h", "w"], strides = array<i64: 2, 2>, window = array<i64: 2, 2>} : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32> -> !tessel.tensor<[batch:8, f:16, h:14, w:14], f32>
  %max = tessel.pool max %y {spatial = ["h", "w"], window = array<i64: 2, 2>,
                             strides = array<i64: 2, 2>}
      : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
      -> !tessel.tensor<[batch:8, f:16, h:14, w:14], f32>
  // CHECK: %[[AVG:.*]] = tessel.pool avg %[[Y]] {padding = array<i64: 1, 1, 1, 1>, spatial = ["h", "w"], window = array<i64: 3, 3>} : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32> -> !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
  %avg = tessel.pool avg %y {spatial = ["h", "w"], window = array<i64: 3, 3>,
                             padding = array<i64: 1, 1, 1, 1>}
      : !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
      -> !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
  // CHECK: return %[[MAX]], %[[AVG]]
  return %max, %avg : !tessel.tensor<[batch:8, f:16, h:14, w:14], f32>,
      !tessel.tensor<[batch:8, f:16, h:28, w:28], f32>
}

//===----------------------------------------------------------------------===//
// Lookups
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @lookups
// CHECK-SAME: (%[[T:.*]]: !tessel.tensor<[vocab:256, d_model:64], f32>, %[[IDS:.*]]: !tessel.tensor<[batch:4, seq:16], i32>)
func.func @lookups(%table: !tessel.tensor<[vocab:256, d_model:64], f32>,
                   %ids: !tessel.tensor<[batch:4, seq:16], i32>)
    -> (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>,
        !tessel.tensor<[batch:4, seq:16, classes:10], f32>) {
  // CHECK: %[[E:.*]] = tessel.gather %[[T]][%[[IDS]]] over "vocab" : !tessel.tensor<[vocab:256, d_model:64], f32>, !tessel.tensor<[batch:4, seq:16], i32> -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  %e = tessel.gather %table[%ids] over "vocab"
      : !tessel.tensor<[vocab:256, d_model:64], f32>, !tessel.tensor<[batch:4, seq:16], i32>
      -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  // CHECK: %[[O:.*]] = tessel.one_hot %[[IDS]] as "classes" : !tessel.tensor<[batch:4, seq:16], i32> -> !tessel.tensor<[batch:4, seq:16, classes:10], f32>
  %o = tessel.one_hot %ids as "classes"
      : !tessel.tensor<[batch:4, seq:16], i32> -> !tessel.tensor<[batch:4, seq:16, classes:10], f32>
  // CHECK: return %[[E]], %[[O]]
  return %e, %o : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>,
      !tessel.tensor<[batch:4, seq:16, classes:10], f32>
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

// CHECK-LABEL: func.func @shapes
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, hidden:512], f32>)
func.func @shapes(%x: !tessel.tensor<[batch:4, hidden:512], f32>)
    -> (!tessel.tensor<[batch:4, features:512], f32>,
        !tessel.tensor<[heads:8, batch:4, head_dim:64], f32>) {
  // CHECK: %[[R:.*]] = tessel.rename %[[X]] : !tessel.tensor<[batch:4, hidden:512], f32> -> !tessel.tensor<[batch:4, features:512], f32>
  %r = tessel.rename %x : !tessel.tensor<[batch:4, hidden:512], f32>
                       -> !tessel.tensor<[batch:4, features:512], f32>
  // CHECK: %[[S:.*]] = tessel.reshape %[[X]] : !tessel.tensor<[batch:4, hidden:512], f32> -> !tessel.tensor<[batch:4, heads:8, head_dim:64], f32>
  %s = tessel.reshape %x : !tessel.tensor<[batch:4, hidden:512], f32>
                        -> !tessel.tensor<[batch:4, heads:8, head_dim:64], f32>
  // CHECK: %[[T:.*]] = tessel.transpose %[[S]] : !tessel.tensor<[batch:4, heads:8, head_dim:64], f32> -> !tessel.tensor<[heads:8, batch:4, head_dim:64], f32>
  %t = tessel.transpose %s : !tessel.tensor<[batch:4, heads:8, head_dim:64], f32>
                          -> !tessel.tensor<[heads:8, batch:4, head_dim:64], f32>
  // CHECK: return %[[R]], %[[T]]
  return %r, %t : !tessel.tensor<[batch:4, features:512], f32>,
      !tessel.tensor<[heads:8, batch:4, head_dim:64], f32>
}

// CHECK-LABEL: func.func @slice_concat_pad
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:2, seq:16], f32>, %[[A:.*]]: !tessel.tensor<[seq:4, d:8], f32>, %[[B:.*]]: !tessel.tensor<[seq:2, d:8], f32>, %[[H:.*]]: !tessel.tensor<[h:4, w:3], f32>)
func.func @slice_concat_pad(%x: !tessel.tensor<[batch:2, seq:16], f32>,
                            %a: !tessel.tensor<[seq:4, d:8], f32>,
                            %b: !tessel.tensor<[seq:2, d:8], f32>,
                            %h: !tessel.tensor<[h:4, w:3], f32>)
    -> (!tessel.tensor<[batch:1, seq:8], f32>, !tessel.tensor<[seq:10, d:8], f32>,
        !tessel.tensor<[h:7, w:3], f32>) {
  // CHECK: %[[S:.*]] = tessel.slice %[[X]] {dims = ["seq", "batch"], starts = array<i64: 4, 1>} : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:1, seq:8], f32>
  %s = tessel.slice %x {dims = ["seq", "batch"], starts = array<i64: 4, 1>}
      : !tessel.tensor<[batch:2, seq:16], f32> -> !tessel.tensor<[batch:1, seq:8], f32>
  // CHECK: %[[C:.*]] = tessel.concat %[[A]], %[[B]], %[[A]] over "seq" : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:8], f32>, !tessel.tensor<[seq:4, d:8], f32>) -> !tessel.tensor<[seq:10, d:8], f32>
  %c = tessel.concat %a, %b, %a over "seq"
      : (!tessel.tensor<[seq:4, d:8], f32>, !tessel.tensor<[seq:2, d:8], f32>,
         !tessel.tensor<[seq:4, d:8], f32>) -> !tessel.tensor<[seq:10, d:8], f32>
  // CHECK: %[[P:.*]] = tessel.pad %[[H]] {dims = ["h"], high = array<i64: 2>, low = array<i64: 1>, value = -1.000000e+00 : f64} : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], f32>
  %p = tessel.pad %h {dims = ["h"], low = array<i64: 1>, high = array<i64: 2>, value = -1.0 : f64}
      : !tessel.tensor<[h:4, w:3], f32> -> !tessel.tensor<[h:7, w:3], f32>
  // CHECK: return %[[S]], %[[C]], %[[P]]
  return %s, %c, %p : !tessel.tensor<[batch:1, seq:8], f32>,
      !tessel.tensor<[seq:10, d:8], f32>, !tessel.tensor<[h:7, w:3], f32>
}

// Ops that keep their operand's dimensions print one type when the result
// type is the same and `T -> U` when only the layout differs.
// CHECK-LABEL: func.func @layout_changes
// CHECK-SAME: (%[[X:.*]]: !tessel.tensor<[batch:4, hidden:8], f32>)
func.func @layout_changes(%x: !tessel.tensor<[batch:4, hidden:8], f32>)
    -> !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{hidden = [model]}>> {
  // CHECK: %[[R:.*]] = tessel.relu %[[X]] : !tessel.tensor<[batch:4, hidden:8], f32> -> !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data]}>>
  %r = tessel.relu %x : !tessel.tensor<[batch:4, hidden:8], f32>
      -> !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data]}>>
  // CHECK: %[[S:.*]] = tessel.softmax %[[R]] over "hidden" : !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data]}>>{{$}}
  %s = tessel.softmax %r over "hidden"
      : !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data]}>>
  // CHECK: %[[N:.*]] = tessel.layer_norm %[[S]] over ["hidden"] epsilon 1.000000e-05 : !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data]}>> -> !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{hidden = [model]}>>
  %n = tessel.layer_norm %s over ["hidden"] epsilon 1.0e-05
      : !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{batch = [data]}>>
      -> !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{hidden = [model]}>>
  // CHECK: return %[[N]]
  return %n : !tessel.tensor<[batch:4, hidden:8], f32, #tessel.layout<{hidden = [model]}>>
}
