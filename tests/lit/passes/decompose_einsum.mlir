// RUN: tessel-opt %s --tessel-decompose-einsum --mlir-print-debuginfo | FileCheck %s
//
// The decomposed program computes what the n-ary einsums compute:
// RUN: tessel-opt %s --tessel-decompose-einsum -o %t.mlir
// RUN: for f in order kept four balanced private twice loss; do \
// RUN:   tessel-eval %s --function $f --random-inputs --seed 1 --output-dir %t.$f > /dev/null && \
// RUN:   tessel-eval %t.mlir --function $f --random-inputs --seed 1 --check-against %t.$f; \
// RUN: done | FileCheck %s --check-prefix=SAME
// SAME-COUNT-7: result0: matches
//
// and its gradients (of pairwise einsums and a reduce) agree with finite
// differences:
// RUN: tessel-eval %t.mlir --function loss --check-gradients --seed 2 | FileCheck %s --check-prefix=GRAD
// GRAD: gradient a: 6 of 6
// GRAD: gradient b: 12 of 12
// GRAD: gradient c: 8 of 8
// GRAD: gradient check passed
// So do those of the differential sweep's model of 3- and 4-input einsums
// (a parameter summed over a dimension only it has, by a reduce):
// RUN: tessel-opt %S/../../differential/models/einsum3/einsum3.mlir --tessel-decompose-einsum -o %t.model.mlir
// RUN: tessel-eval %t.model.mlir --check-gradients --promote-f64 --seed 1 | FileCheck %s --check-prefix=MODEL
// MODEL: gradient u: 16 of 36
// MODEL-NEXT: gradient v: 12 of 12
// MODEL-NEXT: gradient w: 16 of 16
// MODEL-NEXT: gradient m: 16 of 24
// MODEL-NEXT: gradient x: 16 of 48
// MODEL-NEXT: gradient check passed
//
// tessel explain counts the pairwise einsums' FLOPs: 2 * (2*100*100) +
// 2 * (2*100*50) = 60000, where the 3-input einsum counts
// 2 * 2 * (2*100*100*50) = 4000000.
// RUN: tessel explain %s --function order --mesh data:1 --rules "" | FileCheck %s --check-prefix=EXPLAIN
// EXPLAIN: %0 activation [k:100, i:2]
// EXPLAIN: FLOPs 60000

// The order matters: left to right (C·B, then A) costs 500000 + 10000
// multiply-adds, B·A first 20000 + 10000. The intermediate's dimensions
// come in order of first appearance (k from C, then i); the last einsum
// has the original result type, name and location.
// CHECK-LABEL: func.func @order(
// CHECK-SAME: %[[C:[^:]*]]: !tessel.tensor<[k:100, l:50], f32>
// CHECK-SAME: %[[B:[^:]*]]: !tessel.tensor<[j:100, k:100], f32>
// CHECK-SAME: %[[A:[^:]*]]: !tessel.tensor<[i:2, j:100], f32>
// CHECK-NEXT: %[[BA:.*]] = tessel.einsum %[[B]], %[[A]] : (!tessel.tensor<[j:100, k:100], f32>, !tessel.tensor<[i:2, j:100], f32>) -> !tessel.tensor<[k:100, i:2], f32> loc(#[[LOC:loc[0-9]*]])
// CHECK-NEXT: %[[Y:.*]] = tessel.einsum %[[C]], %[[BA]] {tessel.name = "y"} : (!tessel.tensor<[k:100, l:50], f32>, !tessel.tensor<[k:100, i:2], f32>) -> !tessel.tensor<[i:2, l:50], f32> loc(#[[LOC]])
// CHECK-NEXT: return %[[Y]]
func.func @order(%c: !tessel.tensor<[k:100, l:50], f32> {tessel.name = "c"},
                 %b: !tessel.tensor<[j:100, k:100], f32> {tessel.name = "b"},
                 %a: !tessel.tensor<[i:2, j:100], f32> {tessel.name = "a"})
    -> !tessel.tensor<[i:2, l:50], f32> {
  %y = tessel.einsum %c, %b, %a {tessel.name = "y"}
      : (!tessel.tensor<[k:100, l:50], f32>, !tessel.tensor<[j:100, k:100], f32>,
         !tessel.tensor<[i:2, j:100], f32>) -> !tessel.tensor<[i:2, l:50], f32>
  return %y : !tessel.tensor<[i:2, l:50], f32>
}

// `s` is in the first and third inputs but not in the result: A·B (64
// multiply-adds, then 128 with C) is cheapest, and its intermediate keeps
// `s` for C; `i` is summed there.
// CHECK-LABEL: func.func @kept(
// CHECK-SAME: %[[A:[^:]*]]: !tessel.tensor<[s:2, i:8], f32>
// CHECK-SAME: %[[B:[^:]*]]: !tessel.tensor<[i:8, j:4], f32>
// CHECK-SAME: %[[C:[^:]*]]: !tessel.tensor<[s:2, k:16], f32>
// CHECK-NEXT: %[[AB:.*]] = tessel.einsum %[[A]], %[[B]] : ({{.*}}) -> !tessel.tensor<[s:2, j:4], f32>
// CHECK-NEXT: tessel.einsum %[[AB]], %[[C]] : ({{.*}}) -> !tessel.tensor<[k:16, j:4], f32>
func.func @kept(%a: !tessel.tensor<[s:2, i:8], f32>, %b: !tessel.tensor<[i:8, j:4], f32>,
                %c: !tessel.tensor<[s:2, k:16], f32>) -> !tessel.tensor<[k:16, j:4], f32> {
  %y = tessel.einsum %a, %b, %c
      : (!tessel.tensor<[s:2, i:8], f32>, !tessel.tensor<[i:8, j:4], f32>,
         !tessel.tensor<[s:2, k:16], f32>) -> !tessel.tensor<[k:16, j:4], f32>
  return %y : !tessel.tensor<[k:16, j:4], f32>
}

// Four inputs in a chain: ((A·B)·C)·D costs 4096 + 1024 + 256; the
// balanced (A·B)·(C·D) would cost 4096 + 4096 + 512.
// CHECK-LABEL: func.func @four(
// CHECK-SAME: %[[A:[^:]*]]: !tessel.tensor<[a:2, b:64], f32>
// CHECK-SAME: %[[B:[^:]*]]: !tessel.tensor<[b:64, c:32], f32>
// CHECK-SAME: %[[C:[^:]*]]: !tessel.tensor<[c:32, d:16], f32>
// CHECK-SAME: %[[D:[^:]*]]: !tessel.tensor<[d:16, e:8], f32>
// CHECK-NEXT: %[[AB:.*]] = tessel.einsum %[[A]], %[[B]] : ({{.*}}) -> !tessel.tensor<[a:2, c:32], f32>
// CHECK-NEXT: %[[ABC:.*]] = tessel.einsum %[[AB]], %[[C]] : ({{.*}}) -> !tessel.tensor<[a:2, d:16], f32>
// CHECK-NEXT: %[[Y:.*]] = tessel.einsum %[[ABC]], %[[D]] {tessel.name = "chain"} : ({{.*}}) -> !tessel.tensor<[e:8, a:2], f32>
// CHECK-NEXT: return %[[Y]]
func.func @four(%a: !tessel.tensor<[a:2, b:64], f32>, %b: !tessel.tensor<[b:64, c:32], f32>,
                %c: !tessel.tensor<[c:32, d:16], f32>, %d: !tessel.tensor<[d:16, e:8], f32>)
    -> !tessel.tensor<[e:8, a:2], f32> {
  %y = tessel.einsum %a, %b, %c, %d {tessel.name = "chain"}
      : (!tessel.tensor<[a:2, b:64], f32>, !tessel.tensor<[b:64, c:32], f32>,
         !tessel.tensor<[c:32, d:16], f32>, !tessel.tensor<[d:16, e:8], f32>)
      -> !tessel.tensor<[e:8, a:2], f32>
  return %y : !tessel.tensor<[e:8, a:2], f32>
}

// Four inputs where the balanced tree wins: A·B and C·D (256 each) leave
// 2 x 2 matrices, whose product costs 8; ((A·B)·C)·D would cost 768.
// CHECK-LABEL: func.func @balanced(
// CHECK-SAME: %[[A:[^:]*]]: !tessel.tensor<[a:2, b:64], f32>
// CHECK-SAME: %[[B:[^:]*]]: !tessel.tensor<[b:64, c:2], f32>
// CHECK-SAME: %[[C:[^:]*]]: !tessel.tensor<[c:2, d:64], f32>
// CHECK-SAME: %[[D:[^:]*]]: !tessel.tensor<[d:64, e:2], f32>
// CHECK-NEXT: %[[AB:.*]] = tessel.einsum %[[A]], %[[B]] : ({{.*}}) -> !tessel.tensor<[a:2, c:2], f32>
// CHECK-NEXT: %[[CD:.*]] = tessel.einsum %[[C]], %[[D]] : ({{.*}}) -> !tessel.tensor<[c:2, e:2], f32>
// CHECK-NEXT: %[[Y:.*]] = tessel.einsum %[[AB]], %[[CD]] : ({{.*}}) -> !tessel.tensor<[a:2, e:2], f32>
// CHECK-NEXT: return %[[Y]]
func.func @balanced(%a: !tessel.tensor<[a:2, b:64], f32>, %b: !tessel.tensor<[b:64, c:2], f32>,
                    %c: !tessel.tensor<[c:2, d:64], f32>, %d: !tessel.tensor<[d:64, e:2], f32>)
    -> !tessel.tensor<[a:2, e:2], f32> {
  %y = tessel.einsum %a, %b, %c, %d
      : (!tessel.tensor<[a:2, b:64], f32>, !tessel.tensor<[b:64, c:2], f32>,
         !tessel.tensor<[c:2, d:64], f32>, !tessel.tensor<[d:64, e:2], f32>)
      -> !tessel.tensor<[a:2, e:2], f32>
  return %y : !tessel.tensor<[a:2, e:2], f32>
}

// `m` is in B alone and not in the result: B is summed over it first, so
// every pairwise einsum is a matmul. A two-input einsum that sums a
// dimension only one input has is left as it is.
// CHECK-LABEL: func.func @private(
// CHECK-SAME: %[[A:[^:]*]]: !tessel.tensor<[i:3, k:4], f32>
// CHECK-SAME: %[[B:[^:]*]]: !tessel.tensor<[k:4, m:5, j:2], f32>
// CHECK-SAME: %[[C:[^:]*]]: !tessel.tensor<[j:2], f32>
// CHECK-NEXT: %[[R:.*]] = tessel.reduce sum %[[B]] : !tessel.tensor<[k:4, m:5, j:2], f32> -> !tessel.tensor<[k:4, j:2], f32>
// CHECK-NEXT: %[[RC:.*]] = tessel.einsum %[[R]], %[[C]] : ({{.*}}) -> !tessel.tensor<[k:4], f32>
// CHECK-NEXT: %[[Y:.*]] = tessel.einsum %[[A]], %[[RC]] : ({{.*}}) -> !tessel.tensor<[i:3], f32>
// CHECK-NEXT: tessel.einsum %[[Y]], %[[B]] : (!tessel.tensor<[i:3], f32>, !tessel.tensor<[k:4, m:5, j:2], f32>) -> !tessel.tensor<[k:4], f32>
func.func @private(%a: !tessel.tensor<[i:3, k:4], f32>, %b: !tessel.tensor<[k:4, m:5, j:2], f32>,
                   %c: !tessel.tensor<[j:2], f32>) -> !tessel.tensor<[k:4], f32> {
  %y = tessel.einsum %a, %b, %c
      : (!tessel.tensor<[i:3, k:4], f32>, !tessel.tensor<[k:4, m:5, j:2], f32>,
         !tessel.tensor<[j:2], f32>) -> !tessel.tensor<[i:3], f32>
  %z = tessel.einsum %y, %b
      : (!tessel.tensor<[i:3], f32>, !tessel.tensor<[k:4, m:5, j:2], f32>)
      -> !tessel.tensor<[k:4], f32>
  return %z : !tessel.tensor<[k:4], f32>
}

// One value twice, and a full contraction to a scalar: x·x·w.
// CHECK-LABEL: func.func @twice(
// CHECK-NOT: tessel.einsum %{{[^,]*}}, %{{[^,]*}}, %
// CHECK: -> !tessel.tensor<[], f32>
func.func @twice(%x: !tessel.tensor<[n:6], f32>, %w: !tessel.tensor<[n:6, o:3], f32>)
    -> !tessel.tensor<[], f32> {
  %y = tessel.einsum %x, %x, %w
      : (!tessel.tensor<[n:6], f32>, !tessel.tensor<[n:6], f32>,
         !tessel.tensor<[n:6, o:3], f32>) -> !tessel.tensor<[], f32>
  return %y : !tessel.tensor<[], f32>
}

// A loss over a three-input einsum (`m` summed in b alone, `a` used twice)
// for the gradient check.
// CHECK-LABEL: func.func @loss(
// CHECK-NOT: tessel.einsum %{{[^,]*}}, %{{[^,]*}}, %
// CHECK: return
!s = !tessel.tensor<[], f64>
func.func @loss(%a: !tessel.tensor<[i:2, k:3], f64> {tessel.name = "a"},
                %b: !tessel.tensor<[k:3, j:2, m:2], f64> {tessel.name = "b"},
                %c: !tessel.tensor<[i:2, j:2, p:2], f64> {tessel.name = "c"}) -> !s {
  %y = tessel.einsum %a, %b, %c
      : (!tessel.tensor<[i:2, k:3], f64>, !tessel.tensor<[k:3, j:2, m:2], f64>,
         !tessel.tensor<[i:2, j:2, p:2], f64>) -> !tessel.tensor<[j:2, i:2, p:2], f64>
  %z = tessel.einsum %y, %a
      : (!tessel.tensor<[j:2, i:2, p:2], f64>, !tessel.tensor<[i:2, k:3], f64>)
      -> !tessel.tensor<[k:3, p:2], f64>
  %zz = tessel.mul %z, %z : !tessel.tensor<[k:3, p:2], f64>, !tessel.tensor<[k:3, p:2], f64>
      -> !tessel.tensor<[k:3, p:2], f64>
  %l = tessel.reduce sum %zz : !tessel.tensor<[k:3, p:2], f64> -> !s
  return %l : !s
}

// Einsums whose types carry a layout are left alone (run the pass before
// tessel-apply-layout).
// CHECK-LABEL: func.func @laid_out(
// CHECK-NEXT: tessel.einsum %{{[^,]*}}, %{{[^,]*}}, %
func.func @laid_out(%a: !tessel.tensor<[i:2, j:4], f32, #tessel.layout<{i = [data]}>>,
                    %b: !tessel.tensor<[j:4, k:2], f32>, %c: !tessel.tensor<[k:2], f32>)
    -> !tessel.tensor<[i:2], f32, #tessel.layout<{i = [data]}>> {
  %y = tessel.einsum %a, %b, %c
      : (!tessel.tensor<[i:2, j:4], f32, #tessel.layout<{i = [data]}>>,
         !tessel.tensor<[j:4, k:2], f32>, !tessel.tensor<[k:2], f32>)
      -> !tessel.tensor<[i:2], f32, #tessel.layout<{i = [data]}>>
  return %y : !tessel.tensor<[i:2], f32, #tessel.layout<{i = [data]}>>
}
