// RUN: tessel-opt %s --pass-pipeline='builtin.module(func.func(tessel-fuse-elementwise))' | FileCheck %s
// The fused program computes the same values:
// RUN: tessel-opt %s --pass-pipeline='builtin.module(func.func(tessel-fuse-elementwise))' -o %t.mlir
// RUN: tessel-eval --print-limit=64 --function=adam %s > %t.before
// RUN: tessel-eval --print-limit=64 --function=adam %t.mlir > %t.after
// RUN: tessel-eval --print-limit=64 --function=broadcast_producer %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=broadcast_producer %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=relu_gradient %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=relu_gradient %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=constants_only %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=constants_only %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=left_alone %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=left_alone %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=mixed_precision %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=mixed_precision %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=lone_narrow_ops %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=lone_narrow_ops %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=squared_norms %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=squared_norms %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=channel_sums %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=channel_sums %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=broadcast_operands %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=broadcast_operands %t.mlir >> %t.after
// RUN: tessel-eval --print-limit=64 --function=narrow_sums %s >> %t.before
// RUN: tessel-eval --print-limit=64 --function=narrow_sums %t.mlir >> %t.after
// RUN: diff %t.before %t.after
// And the fused ops print and parse back:
// RUN: tessel-opt %t.mlir | tessel-opt | FileCheck %s

!v = !tessel.tensor<[i:4, o:3], f32>
!s = !tessel.tensor<[], f32>

// An AdamW-like update: the first and second moments and the parameter
// each become one op; the moments are used outside (they are returned), so
// they are roots of their own groups and inputs of the parameter's.
// CHECK-LABEL: func.func @adam
func.func @adam() -> (!v, !v, !v) {
  %w = tessel.iota "i" : !v
  %m = tessel.iota "o" : !v
  %g0 = tessel.iota "o" : !v
  %g = tessel.mul %g0, %w : !v, !v -> !v
  %b1 = tessel.constant 9.0e-01 : f32 -> !s
  %c1 = tessel.constant 1.0e-01 : f32 -> !s
  %eps = tessel.constant 1.0e-08 : f32 -> !s
  %lr = tessel.constant 1.0e-03 : f32 -> !s
  // g is used by both moments: it stays an op of its own. No constant is
  // left outside the bodies.
  // CHECK-NOT: tessel.constant
  // CHECK: %[[G:.*]] = tessel.mul
  // CHECK-NOT: tessel.constant
  // CHECK: %[[M2:.*]] = tessel.fused %{{.*}}, %[[G]] : {{.*}} {
  // CHECK-NEXT: ^bb0
  // CHECK-DAG: tessel.constant 0.899999976 : f32
  // CHECK-DAG: tessel.constant 1.000000e-01 : f32
  // CHECK: tessel.add
  // CHECK-NEXT: tessel.yield
  %mb = tessel.mul %m, %b1 : !v, !s -> !v
  %gb = tessel.mul %g, %c1 : !v, !s -> !v
  %m2 = tessel.add %mb, %gb : !v, !v -> !v
  // The second moment: g * g uses g twice.
  // CHECK: %[[V2:.*]] = tessel.fused %[[G]] : (!tessel.tensor<[i:4, o:3], f32>) -> !tessel.tensor<[i:4, o:3], f32> {
  // CHECK: tessel.mul %arg{{[0-9]+}}, %arg{{[0-9]+}}
  %gg = tessel.mul %g, %g : !v, !v -> !v
  %v2 = tessel.mul %gg, %c1 : !v, !s -> !v
  // CHECK: %[[W2:.*]] = tessel.fused %[[V2]], %[[M2]], %{{.*}} : {{.*}} {
  // CHECK: tessel.sqrt
  // CHECK: tessel.yield
  %root = tessel.sqrt %v2 : !v
  %den = tessel.add %root, %eps : !v, !s -> !v
  %step = tessel.div %m2, %den : !v, !v -> !v
  %scaled = tessel.mul %step, %lr : !v, !s -> !v
  %w2 = tessel.sub %w, %scaled : !v, !v -> !v
  // CHECK-NOT: tessel.constant
  // CHECK: return %[[W2]], %[[M2]], %[[V2]]
  return %w2, %m2, %v2 : !v, !v, !v
}

// A producer with fewer dimensions than the result it is broadcast into is
// not fused (it would be computed once per element of `o`): it stays an op
// of its own, and an input of the group.
// CHECK-LABEL: func.func @broadcast_producer
func.func @broadcast_producer() -> !v {
  %row = tessel.iota "i" : !tessel.tensor<[i:4], f32>
  %x = tessel.iota "o" : !v
  // CHECK: %[[E:.*]] = tessel.exp %{{.*}} : !tessel.tensor<[i:4], f32>
  %e = tessel.exp %row : !tessel.tensor<[i:4], f32>
  // CHECK: tessel.fused %{{.*}}, %[[E]] : (!tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[i:4], f32>)
  // CHECK: tessel.mul %{{.*}}, %{{.*}} : !tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[i:4], f32>
  %y = tessel.mul %x, %e : !v, !tessel.tensor<[i:4], f32> -> !v
  %z = tessel.tanh %y : !v
  return %z : !v
}

// A relu gradient: the comparison's i1 result never leaves the body, and an
// intermediate whose dimensions are in another order joins.
// CHECK-LABEL: func.func @relu_gradient
func.func @relu_gradient() -> !v {
  %x = tessel.iota "i" : !v
  %dy = tessel.iota "o" : !tessel.tensor<[o:3, i:4], f32>
  %zero = tessel.constant 0.0 : f32 -> !s
  %half = tessel.constant 5.0e-01 : f32 -> !s
  // CHECK: tessel.fused %{{.*}}, %{{.*}} : (!tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[o:3, i:4], f32>) -> !tessel.tensor<[i:4, o:3], f32> {
  // CHECK: tessel.compare gt
  // CHECK: tessel.select
  // CHECK-NEXT: tessel.yield
  %shifted = tessel.sub %x, %half : !v, !s -> !v
  %dyh = tessel.mul %dy, %half : !tessel.tensor<[o:3, i:4], f32>, !s -> !tessel.tensor<[o:3, i:4], f32>
  %positive = tessel.compare gt, %shifted, %zero : !v, !s -> !tessel.tensor<[i:4, o:3], i1>
  %dx = tessel.select %positive, %dyh, %zero : !tessel.tensor<[i:4, o:3], i1>, !tessel.tensor<[o:3, i:4], f32>, !s -> !v
  return %dx : !v
}

// A chain fed by constants alone becomes a fused op without inputs (the
// runtime fills its result from the body).
// CHECK-LABEL: func.func @constants_only
func.func @constants_only() -> !v {
  %x = tessel.iota "i" : !v
  %c64 = tessel.constant 6.4e+01 : f32 -> !s
  %one = tessel.constant 1.0 : f32 -> !s
  // CHECK: %[[INV:.*]] = tessel.fused  : () -> !tessel.tensor<[], f32> {
  // CHECK: tessel.sqrt
  // CHECK: tessel.div
  %root = tessel.sqrt %c64 : !s
  %inv = tessel.div %one, %root : !s, !s -> !s
  // CHECK: tessel.mul %{{.*}}, %[[INV]]
  %y = tessel.mul %x, %inv : !v, !s -> !v
  return %y : !v
}

// What is not fused: a single op, integer ops, and an intermediate that is
// also returned (it becomes the root of its own group instead).
// CHECK-LABEL: func.func @left_alone
func.func @left_alone() -> (!v, !tessel.tensor<[k:3], i32>, !v, !v) {
  %x = tessel.iota "i" : !v
  // CHECK: tessel.exp %{{.*}} : !tessel.tensor<[i:4, o:3], f32>
  %single = tessel.exp %x : !v
  // CHECK: tessel.add %{{.*}}, %{{.*}} : !tessel.tensor<[k:3], i32>
  // CHECK: tessel.mul %{{.*}}, %{{.*}} : !tessel.tensor<[k:3], i32>
  %n = tessel.iota "k" : !tessel.tensor<[k:3], i32>
  %n2 = tessel.add %n, %n : !tessel.tensor<[k:3], i32>, !tessel.tensor<[k:3], i32> -> !tessel.tensor<[k:3], i32>
  %n3 = tessel.mul %n2, %n : !tessel.tensor<[k:3], i32>, !tessel.tensor<[k:3], i32> -> !tessel.tensor<[k:3], i32>
  // CHECK: %[[A:.*]] = tessel.fused %{{.*}} : (!tessel.tensor<[i:4, o:3], f32>)
  // CHECK-COUNT-2: tessel.neg
  // CHECK: tessel.fused %[[A]] :
  // CHECK: tessel.abs
  %a0 = tessel.neg %x : !v
  %a = tessel.neg %a0 : !v
  %b0 = tessel.abs %a : !v
  %b = tessel.sqrt %b0 : !v
  return %a, %n3, %b, %single : !v, !tessel.tensor<[k:3], i32>, !v, !v
}

// A mixed-precision chain, casts included: the runtime computes bf16 and f16
// values in f32 and rounds each to its type, so the whole chain is one op,
// from the f32 input to the f32 result.
// CHECK-LABEL: func.func @mixed_precision
func.func @mixed_precision() -> !v {
  %x = tessel.iota "i" : !v
  %scale = tessel.constant 0.3 : bf16 -> !tessel.tensor<[], bf16>
  // CHECK: tessel.fused %{{.*}} : (!tessel.tensor<[i:4, o:3], f32>) -> !tessel.tensor<[i:4, o:3], f32>
  // CHECK: tessel.cast %{{.*}} : !tessel.tensor<[i:4, o:3], f32> -> !tessel.tensor<[i:4, o:3], bf16>
  // CHECK: tessel.mul
  // CHECK: tessel.gelu
  // CHECK: tessel.cast %{{.*}} : !tessel.tensor<[i:4, o:3], bf16> -> !tessel.tensor<[i:4, o:3], f16>
  // CHECK: tessel.exp
  // CHECK: tessel.cast %{{.*}} : !tessel.tensor<[i:4, o:3], f16> -> !tessel.tensor<[i:4, o:3], f32>
  // CHECK: tessel.add
  // CHECK-NOT: tessel.cast
  // CHECK: return
  %narrow = tessel.cast %x : !v -> !tessel.tensor<[i:4, o:3], bf16>
  %scaled = tessel.mul %narrow, %scale : !tessel.tensor<[i:4, o:3], bf16>, !tessel.tensor<[], bf16> -> !tessel.tensor<[i:4, o:3], bf16>
  %g = tessel.gelu %scaled : !tessel.tensor<[i:4, o:3], bf16>
  %h = tessel.cast %g : !tessel.tensor<[i:4, o:3], bf16> -> !tessel.tensor<[i:4, o:3], f16>
  %e = tessel.exp %h : !tessel.tensor<[i:4, o:3], f16>
  %wide = tessel.cast %e : !tessel.tensor<[i:4, o:3], f16> -> !v
  %y = tessel.add %wide, %x : !v, !v -> !v
  return %y : !v
}

// A lone op on bf16 or f16 values is a fused op of one: the fused kernel
// computes those types where the single ops have no fast kernel (GELU);
// f32 ops stay alone.
// CHECK-LABEL: func.func @lone_narrow_ops
func.func @lone_narrow_ops() -> (!tessel.tensor<[i:4, o:3], bf16>, !tessel.tensor<[i:4, o:3], bf16>, !v) {
  %x = tessel.iota "i" : !v
  // CHECK: tessel.exp %{{.*}} : !tessel.tensor<[i:4, o:3], f32>
  %e = tessel.exp %x : !v
  // CHECK: tessel.fused %{{.*}} : (!tessel.tensor<[i:4, o:3], f32>) -> !tessel.tensor<[i:4, o:3], bf16>
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: tessel.cast
  // CHECK-NEXT: tessel.yield
  %b = tessel.cast %x : !v -> !tessel.tensor<[i:4, o:3], bf16>
  // CHECK: tessel.fused %{{.*}} : (!tessel.tensor<[i:4, o:3], bf16>) -> !tessel.tensor<[i:4, o:3], bf16>
  // CHECK-NEXT: ^bb0
  // CHECK-NEXT: tessel.gelu
  // CHECK-NEXT: tessel.yield
  %g = tessel.gelu %b : !tessel.tensor<[i:4, o:3], bf16>
  return %b, %g, %e : !tessel.tensor<[i:4, o:3], bf16>, !tessel.tensor<[i:4, o:3], bf16>, !v
}

// A sum (or mean) of an f32 value over all its dims, or a leading or
// trailing run of them, ends that value's group: the fused op yields the
// sum (a gradient's squared norm, sum(g * g), without storing g * g; a
// bias's gradient summed over the batch; a row mean). Where the value of a
// sum over every dim has other uses (Adam's second moment takes the same
// square), the sum computes its own copy of the op that makes it; a
// partial sum of a shared value, and a maximum, are left to their own ops.
// CHECK-LABEL: func.func @squared_norms
func.func @squared_norms() -> (!s, !s, !v, !tessel.tensor<[o:3], f32>,
                               !tessel.tensor<[o:3], f32>,
                               !tessel.tensor<[i:4], f32>) {
  // CHECK: %[[A:.*]] = tessel.iota "i"
  // CHECK: %[[B:.*]] = tessel.iota "o"
  %a = tessel.iota "i" : !v
  %b = tessel.iota "o" : !v
  // CHECK: %[[NORM:.*]] = tessel.fused %[[A]], %[[B]] : (!tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[i:4, o:3], f32>) -> !tessel.tensor<[], f32>
  // CHECK: %[[G:.*]] = tessel.mul
  // CHECK-NEXT: %[[SQ:.*]] = tessel.mul %[[G]], %[[G]]
  // CHECK-NEXT: %[[SUM:.*]] = tessel.reduce sum %[[SQ]]
  // CHECK-NEXT: tessel.yield %[[SUM]] : !tessel.tensor<[], f32>
  %g = tessel.mul %a, %b : !v, !v -> !v
  %sq = tessel.mul %g, %g : !v, !v -> !v
  %n = tessel.reduce sum %sq : !v -> !s
  // CHECK: %[[SQ2:.*]] = tessel.mul %[[B]], %[[B]] : !tessel.tensor<[i:4, o:3], f32>
  // CHECK-NEXT: %[[N2:.*]] = tessel.fused %[[B]] : (!tessel.tensor<[i:4, o:3], f32>) -> !tessel.tensor<[], f32>
  // CHECK-NEXT: ^bb0(%[[X:.*]]: !tessel.tensor<[i:4, o:3], f32>):
  // CHECK-NEXT: %[[COPY:.*]] = tessel.mul %[[X]], %[[X]]
  // CHECK-NEXT: %[[SUM2:.*]] = tessel.reduce sum %[[COPY]]
  // CHECK-NEXT: tessel.yield %[[SUM2]]
  // CHECK: %[[P:.*]] = tessel.reduce sum %[[SQ2]] : !tessel.tensor<[i:4, o:3], f32> -> !tessel.tensor<[o:3], f32>
  // CHECK-NEXT: %[[Q:.*]] = tessel.reduce max %[[SQ2]] : !tessel.tensor<[i:4, o:3], f32> -> !tessel.tensor<[o:3], f32>
  %sq2 = tessel.mul %b, %b : !v, !v -> !v
  %n2 = tessel.reduce sum %sq2 : !v -> !s
  %p = tessel.reduce sum %sq2 : !v -> !tessel.tensor<[o:3], f32>
  %q = tessel.reduce max %sq2 : !v -> !tessel.tensor<[o:3], f32>
  // CHECK: %[[COL:.*]] = tessel.fused %[[A]] : (!tessel.tensor<[i:4, o:3], f32>) -> !tessel.tensor<[o:3], f32>
  // CHECK: tessel.exp
  // CHECK-NEXT: tessel.reduce sum %{{.*}} : !tessel.tensor<[i:4, o:3], f32> -> !tessel.tensor<[o:3], f32>
  // CHECK: %[[ROW:.*]] = tessel.fused %[[B]], %[[A]] : (!tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[i:4, o:3], f32>) -> !tessel.tensor<[i:4], f32>
  // CHECK: tessel.mul
  // CHECK-NEXT: tessel.reduce mean %{{.*}} : !tessel.tensor<[i:4, o:3], f32> -> !tessel.tensor<[i:4], f32>
  // CHECK: return %[[NORM]], %[[N2]], %[[SQ2]], %[[P]], %[[COL]], %[[ROW]]
  %e = tessel.exp %a : !v
  %col = tessel.reduce sum %e : !v -> !tessel.tensor<[o:3], f32>
  %ba = tessel.mul %b, %a : !v, !v -> !v
  %row = tessel.reduce mean %ba : !v -> !tessel.tensor<[i:4], f32>
  %pq = tessel.add %p, %q : !tessel.tensor<[o:3], f32>, !tessel.tensor<[o:3], f32> -> !tessel.tensor<[o:3], f32>
  return %n, %n2, %sq2, %p, %col, %row : !s, !s, !v, !tessel.tensor<[o:3], f32>,
      !tessel.tensor<[o:3], f32>, !tessel.tensor<[i:4], f32>
}

// A broadcast read by ops that broadcast by name (a chain that fuses, a
// select) is read as its input, and goes once nothing else reads it; one
// that a unary op reads stays for that op, and so does one that gives an
// op a dim none of its other operands has.
// CHECK-LABEL: func.func @broadcast_operands
func.func @broadcast_operands() -> (!v, !v, !v, !v) {
  // CHECK: %[[X:.*]] = tessel.iota "i"
  // CHECK-NEXT: %[[S:.*]] = tessel.iota "o" : !tessel.tensor<[o:3], f32>
  // CHECK-NEXT: tessel.fused %[[X]], %[[S]] : (!tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[o:3], f32>)
  // CHECK: tessel.mul %{{.*}}, %{{.*}} : !tessel.tensor<[i:4, o:3], f32>, !tessel.tensor<[o:3], f32>
  // CHECK: tessel.fused %[[X]], %[[S]]
  // CHECK: tessel.select %{{.*}}, %{{.*}}, %{{.*}} : !tessel.tensor<[i:4, o:3], i1>, !tessel.tensor<[o:3], f32>, !tessel.tensor<[i:4, o:3], f32>
  // CHECK-NOT: tessel.broadcast
  // CHECK: %[[KEPT:.*]] = tessel.broadcast %[[S]] : !tessel.tensor<[o:3], f32> -> !tessel.tensor<[i:4, o:3], f32>
  // CHECK-NEXT: tessel.exp %[[KEPT]]
  // CHECK: %[[ROWS:.*]] = tessel.broadcast %[[S]] : !tessel.tensor<[o:3], f32> -> !tessel.tensor<[i:4, o:3], f32>
  // CHECK-NEXT: tessel.mul %[[ROWS]], %[[S]]
  // CHECK-NOT: tessel.broadcast
  %x = tessel.iota "i" : !v
  %small = tessel.iota "o" : !tessel.tensor<[o:3], f32>
  %cond = tessel.compare gt, %x, %x : !v, !v -> !tessel.tensor<[i:4, o:3], i1>
  %spread = tessel.broadcast %small : !tessel.tensor<[o:3], f32> -> !v
  %m = tessel.mul %x, %spread : !v, !v -> !v
  %t = tessel.tanh %m : !v
  %s = tessel.select %cond, %spread, %x : !tessel.tensor<[i:4, o:3], i1>, !v, !v -> !v
  %kept = tessel.broadcast %small : !tessel.tensor<[o:3], f32> -> !v
  %e = tessel.exp %kept : !v
  %rows = tessel.broadcast %small : !tessel.tensor<[o:3], f32> -> !v
  %r = tessel.mul %rows, %small : !v, !tessel.tensor<[o:3], f32> -> !v
  return %t, %s, %e, %r : !v, !v, !v, !v
}

// A batch norm's sums over batch and space keep the channels between
// them: the sum ends the group of the value it sums, as a leading or
// trailing run does; kept dims out of the value's order do not.
// CHECK-LABEL: func.func @channel_sums
func.func @channel_sums() -> (!tessel.tensor<[c:3], f32>, !tessel.tensor<[h:4, b:2], f32>) {
  // CHECK: tessel.fused %{{.*}}, %{{.*}} : (!tessel.tensor<[b:2, c:3, h:4], f32>, !tessel.tensor<[c:3], f32>) -> !tessel.tensor<[c:3], f32>
  // CHECK: tessel.sub
  // CHECK-NEXT: tessel.mul
  // CHECK-NEXT: tessel.reduce mean %{{.*}} : !tessel.tensor<[b:2, c:3, h:4], f32> -> !tessel.tensor<[c:3], f32>
  // CHECK: %[[SQ:.*]] = tessel.mul
  // CHECK-NEXT: tessel.reduce sum %[[SQ]] : !tessel.tensor<[b:2, c:3, h:4], f32> -> !tessel.tensor<[h:4, b:2], f32>
  %x = tessel.iota "h" : !tessel.tensor<[b:2, c:3, h:4], f32>
  %mean = tessel.iota "c" : !tessel.tensor<[c:3], f32>
  %d = tessel.sub %x, %mean : !tessel.tensor<[b:2, c:3, h:4], f32>, !tessel.tensor<[c:3], f32> -> !tessel.tensor<[b:2, c:3, h:4], f32>
  %sq = tessel.mul %d, %d : !tessel.tensor<[b:2, c:3, h:4], f32>, !tessel.tensor<[b:2, c:3, h:4], f32> -> !tessel.tensor<[b:2, c:3, h:4], f32>
  %var = tessel.reduce mean %sq : !tessel.tensor<[b:2, c:3, h:4], f32> -> !tessel.tensor<[c:3], f32>
  %sq2 = tessel.mul %x, %x : !tessel.tensor<[b:2, c:3, h:4], f32>, !tessel.tensor<[b:2, c:3, h:4], f32> -> !tessel.tensor<[b:2, c:3, h:4], f32>
  %apart = tessel.reduce sum %sq2 : !tessel.tensor<[b:2, c:3, h:4], f32> -> !tessel.tensor<[h:4, b:2], f32>
  return %var, %apart : !tessel.tensor<[c:3], f32>, !tessel.tensor<[h:4, b:2], f32>
}

// A mixed-precision step's sums (a bf16 bias's gradient over the batch, an
// f16 square summed whole) end their value's group as f32 sums do, into
// their own type.
// CHECK-LABEL: func.func @narrow_sums
func.func @narrow_sums() -> (!tessel.tensor<[o:3], bf16>, !tessel.tensor<[], f16>) {
  // CHECK: tessel.fused %{{.*}} : (!tessel.tensor<[i:4, o:3], f32>) -> !tessel.tensor<[o:3], bf16>
  // CHECK: tessel.cast
  // CHECK-NEXT: tessel.mul
  // CHECK-NEXT: tessel.reduce sum %{{.*}} : !tessel.tensor<[i:4, o:3], bf16> -> !tessel.tensor<[o:3], bf16>
  // CHECK: tessel.fused %{{.*}} : (!tessel.tensor<[i:4, o:3], f32>) -> !tessel.tensor<[], f16>
  // CHECK: tessel.cast
  // CHECK-NEXT: tessel.mul
  // CHECK-NEXT: tessel.reduce sum %{{.*}} : !tessel.tensor<[i:4, o:3], f16> -> !tessel.tensor<[], f16>
  %x = tessel.iota "i" : !v
  %b = tessel.cast %x : !v -> !tessel.tensor<[i:4, o:3], bf16>
  %h = tessel.cast %x : !v -> !tessel.tensor<[i:4, o:3], f16>
  %bsq = tessel.mul %b, %b : !tessel.tensor<[i:4, o:3], bf16>, !tessel.tensor<[i:4, o:3], bf16> -> !tessel.tensor<[i:4, o:3], bf16>
  %col = tessel.reduce sum %bsq : !tessel.tensor<[i:4, o:3], bf16> -> !tessel.tensor<[o:3], bf16>
  %hsq = tessel.mul %h, %h : !tessel.tensor<[i:4, o:3], f16>, !tessel.tensor<[i:4, o:3], f16> -> !tessel.tensor<[i:4, o:3], f16>
  %all = tessel.reduce sum %hsq : !tessel.tensor<[i:4, o:3], f16> -> !tessel.tensor<[], f16>
  return %col, %all : !tessel.tensor<[o:3], bf16>, !tessel.tensor<[], f16>
}
