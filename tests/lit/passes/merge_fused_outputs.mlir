// RUN: tessel-opt %s --pass-pipeline='builtin.module(func.func(tessel-fuse-elementwise,tessel-merge-fused-outputs))' | FileCheck %s
// The merged ops compute the same values:
// RUN: tessel-opt %s --pass-pipeline='builtin.module(func.func(tessel-fuse-elementwise,tessel-merge-fused-outputs))' -o %t.mlir
// RUN: tessel-eval --print-limit=64 --function=adam %s > %t.before
// RUN: tessel-eval --print-limit=64 --function=adam %t.mlir > %t.after
// RUN: tessel-eval --print-limit=64 --function=narrow_copy %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=narrow_copy %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=not_adjacent %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=not_adjacent %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=sum_after %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=sum_after %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=scalars_between %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=scalars_between %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=bias_then_gelu %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=bias_then_gelu %t.mlir >> %t.after
// RUN: diff %t.before %t.after
// And the merged ops print and parse back:
// RUN: tessel-opt %t.mlir | tessel-opt | FileCheck %s --check-prefix=ROUND
// ROUND-LABEL: func.func @adam
// ROUND: tessel.fused {{.*}} -> ({{.*}}, {{.*}}, {{.*}}) {

!v = !tessel.tensor<[i:4, o:3], f32>
!s = !tessel.tensor<[], f32>

// An Adam update: the fusion leaves the two moments (returned, and read by
// the parameter's update) as fused ops of their own right before the
// update, and the gradient g (read by both moments) as an op alone right
// before them; all merge into the update: its result first, then the
// second moment's, then the first moment's. g, which only the merged
// chain reads, is computed in the same pass and never stored.
// CHECK-LABEL: func.func @adam
// CHECK-NOT: = tessel.mul
// CHECK: %[[R:.*]]:3 = tessel.fused
// CHECK-SAME: -> (!tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[i:4, o:3], f32>)
// CHECK-NOT: tessel.fused
// CHECK: tessel.yield %{{.*}}, %{{.*}}, %{{.*}} : !tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[i:4, o:3], f32>
// CHECK-NOT: tessel.fused
// CHECK: return %[[R]]#0, %[[R]]#2, %[[R]]#1
func.func @adam() -> (!v, !v, !v) {
  %w = tessel.iota "i" : !v
  %m = tessel.iota "o" : !v
  %v0 = tessel.iota "i" : !v
  %v = tessel.mul %v0, %v0 : !v, !v -> !v
  %g0 = tessel.iota "o" : !v
  %g = tessel.mul %g0, %w : !v, !v -> !v
  %b1 = tessel.constant 9.0e-01 : f32 -> !s
  %c1 = tessel.constant 1.0e-01 : f32 -> !s
  %b2 = tessel.constant 9.99e-01 : f32 -> !s
  %c2 = tessel.constant 1.0e-03 : f32 -> !s
  %eps = tessel.constant 1.0e-08 : f32 -> !s
  %lr = tessel.constant 1.0e-03 : f32 -> !s
  %x = tessel.mul %m, %b1 : !v, !s -> !v
  %y = tessel.mul %g, %c1 : !v, !s -> !v
  %m2 = tessel.add %x, %y : !v, !v -> !v
  %gg = tessel.mul %g, %g : !v, !v -> !v
  %vs = tessel.mul %v, %b2 : !v, !s -> !v
  %gs = tessel.mul %gg, %c2 : !v, !s -> !v
  %v2 = tessel.add %vs, %gs : !v, !v -> !v
  %root = tessel.sqrt %v2 : !v
  %den = tessel.add %root, %eps : !v, !s -> !v
  %step = tessel.div %m2, %den : !v, !v -> !v
  %scaled = tessel.mul %step, %lr : !v, !s -> !v
  %w2 = tessel.sub %w, %scaled : !v, !v -> !v
  return %w2, %m2, %v2 : !v, !v, !v
}

// A narrow copy of a new parameter (what a mixed-precision step computes
// for its forward pass) merges: its result is bf16, of the same dims.
// CHECK-LABEL: func.func @narrow_copy
// CHECK: %[[N:.*]]:2 = tessel.fused
// CHECK-SAME: -> (!tessel.tensor<[i:4, o:3], bf16>, !tessel.tensor<[i:4, o:3], f32>)
// CHECK-NOT: tessel.fused
// CHECK: return %[[N]]#1, %[[N]]#0
func.func @narrow_copy() -> (!v, !tessel.tensor<[i:4, o:3], bf16>) {
  %w = tessel.iota "i" : !v
  %g = tessel.iota "o" : !v
  %lr = tessel.constant 1.0e-01 : f32 -> !s
  %s = tessel.mul %g, %lr : !v, !s -> !v
  %w2 = tessel.sub %w, %s : !v, !v -> !v
  %half = tessel.cast %w2 : !v -> !tessel.tensor<[i:4, o:3], bf16>
  return %w2, %half : !v, !tessel.tensor<[i:4, o:3], bf16>
}

// Left apart: a producer with an op between it and its consumer (merging
// would keep its inputs alive across that op), a consumer whose result
// holds the producer's dims in another order, and a consumer that sums.
// CHECK-LABEL: func.func @not_adjacent
// CHECK-COUNT-4: = tessel.fused
// CHECK-NOT: :2 = tessel.fused
// CHECK: return
func.func @not_adjacent() -> (!v, !v, !s, !tessel.tensor<[o:3, i:4], f32>) {
  %a = tessel.iota "i" : !v
  %b = tessel.iota "o" : !v
  %e = tessel.exp %a : !v
  %f = tessel.mul %e, %b : !v, !v -> !v
  %between = tessel.einsum %a, %b : (!v, !v) -> !tessel.tensor<[i:4], f32>
  %h = tessel.neg %f : !v -> !v
  %k = tessel.add %h, %a : !v, !v -> !v
  %t = tessel.mul %k, %k : !v, !v -> !tessel.tensor<[o:3, i:4], f32>
  %w = tessel.exp %t : !tessel.tensor<[o:3, i:4], f32>
  %sq = tessel.mul %k, %b : !v, !v -> !v
  %sum = tessel.reduce sum %sq : !v -> !s
  return %f, %k, %sum, %w : !v, !v, !s, !tessel.tensor<[o:3, i:4], f32>
}

// A fused op that ends in a sum absorbs the op before it whose value it
// reads: the sum first, then the producer's value that is returned too.
// So does a sum the fusion left apart (a bias's gradient: a partial sum
// of a value that an einsum reads too), whose value is then kept as a
// result; a sum that keeps its dims out of the value's order, and one of
// a value read before it, stay apart.
// CHECK-LABEL: func.func @sum_after
// CHECK: %[[F:.*]]:2 = tessel.fused %{{.*}}, %{{.*}} : ({{.*}}) -> (!tessel.tensor<[], f32>, !tessel.tensor<[i:4, o:3], f32>)
// CHECK: tessel.neg
// CHECK-NEXT: tessel.add
// CHECK-NEXT: tessel.mul
// CHECK-NEXT: %[[S:.*]] = tessel.reduce sum
// CHECK-NEXT: tessel.yield %[[S]], %{{.*}} : !tessel.tensor<[], f32>, !tessel.tensor<[i:4, o:3], f32>
// CHECK: %[[G:.*]]:2 = tessel.fused %{{.*}}, %{{.*}} : ({{.*}}) -> (!tessel.tensor<[o:3], f32>, !tessel.tensor<[i:4, o:3], f32>)
// CHECK: tessel.exp
// CHECK-NEXT: tessel.mul
// CHECK-NEXT: %[[BIAS:.*]] = tessel.reduce sum %{{.*}} : !tessel.tensor<[i:4, o:3], f32> -> !tessel.tensor<[o:3], f32>
// CHECK-NEXT: tessel.yield %[[BIAS]], %{{.*}}
// CHECK: tessel.einsum %[[G]]#1
// CHECK: %[[T:.*]] = tessel.fused
// CHECK-NOT: tessel.yield %{{.*}}, %{{.*}}
// CHECK: tessel.reduce sum %[[T]] : !tessel.tensor<[i:4, o:3], f32> -> !tessel.tensor<[o:3, i:4], f32>
// CHECK: return %[[F]]#1, %[[F]]#0, %[[G]]#0
func.func @sum_after() -> (!v, !s, !tessel.tensor<[o:3], f32>, !tessel.tensor<[i:4], f32>, !tessel.tensor<[o:3, i:4], f32>) {
  %a = tessel.iota "i" : !v
  %b = tessel.iota "o" : !v
  %h = tessel.neg %a : !v -> !v
  %k = tessel.add %h, %b : !v, !v -> !v
  %sq = tessel.mul %k, %b : !v, !v -> !v
  %sum = tessel.reduce sum %sq : !v -> !s
  %e = tessel.exp %a : !v
  %g = tessel.mul %e, %b : !v, !v -> !v
  %bias = tessel.reduce sum %g : !v -> !tessel.tensor<[o:3], f32>
  %x = tessel.einsum %g, %b : (!v, !v) -> !tessel.tensor<[i:4], f32>
  %t1 = tessel.exp %b : !v
  %t = tessel.mul %t1, %a : !v, !v -> !v
  %apart = tessel.reduce sum %t : !v -> !tessel.tensor<[o:3, i:4], f32>
  return %k, %sum, %bias, %x, %apart : !v, !s, !tessel.tensor<[o:3], f32>, !tessel.tensor<[i:4], f32>, !tessel.tensor<[o:3, i:4], f32>
}

// Ops that make only scalars may stand between the two (Adam's bias
// corrections, cast to f32 right before the first update); one that reads
// the producer's value may not.
// CHECK-LABEL: func.func @scalars_between
// CHECK: tessel.cast
// CHECK: %[[M:.*]]:2 = tessel.fused
// CHECK: %[[F:.*]] = tessel.fused
// CHECK: tessel.reduce max %[[F]]
// CHECK: = tessel.fused %[[F]]
// CHECK: return %[[M]]#0, %[[M]]#1
func.func @scalars_between() -> (!v, !v, !s, !v) {
  %a = tessel.iota "i" : !v
  %b = tessel.iota "o" : !v
  %h = tessel.neg %a : !v -> !v
  %k = tessel.add %h, %b : !v, !v -> !v
  %wide = tessel.constant 5.0e-01 : f64 -> !tessel.tensor<[], f64>
  %half = tessel.cast %wide : !tessel.tensor<[], f64> -> !s
  %u = tessel.mul %k, %half : !v, !s -> !v
  %w = tessel.exp %u : !v
  %e = tessel.exp %b : !v
  %f = tessel.add %e, %a : !v, !v -> !v
  %first = tessel.reduce max %f : !v -> !s
  %g = tessel.mul %f, %first : !v, !s -> !v
  %y = tessel.sqrt %g : !v
  return %w, %k, %first, %y : !v, !v, !s, !v
}

// Ops the fusion leaves alone take part too: a bias added before GELU,
// whose value is used again, is added in GELU's pass, which writes both.
// CHECK-LABEL: func.func @bias_then_gelu
// CHECK: %[[R:.*]]:2 = tessel.fused
// CHECK: tessel.add
// CHECK-NEXT: tessel.gelu
// CHECK-NEXT: tessel.yield
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @bias_then_gelu() -> (!v, !v) {
  %x = tessel.iota "i" : !v
  %b = tessel.iota "o" : !tessel.tensor<[o:3], f32>
  %h = tessel.add %x, %b : !v, !tessel.tensor<[o:3], f32> -> !v
  %y = tessel.gelu %h : !v
  return %y, %h : !v, !v
}
