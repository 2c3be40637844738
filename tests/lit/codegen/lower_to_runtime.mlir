// RUN: tessel-opt %s -split-input-file --tessel-lower-to-runtime | FileCheck %s

// Each op is one tessel_rt_execute call with its descriptor; each result
// buffer comes from tessel_rt_alloc and is freed after its last use; the
// returned buffer is handed to the caller.

// CHECK-DAG: llvm.func @tessel_rt_alloc(!llvm.ptr, i64) -> !llvm.ptr
// CHECK-DAG: llvm.func @tessel_rt_free(!llvm.ptr, !llvm.ptr)
// CHECK-DAG: llvm.func @tessel_rt_execute(!llvm.ptr, !llvm.ptr, !llvm.ptr, !llvm.ptr, i32, !llvm.ptr)
// CHECK: llvm.mlir.global external constant @tessel_program_metadata("{\22functions\22:[{\22arguments\22:[{\22global\22:{\22dims\22:[\22n\22],\22shape\22:[4],\22type\22:\22f32\22},\22layout\22:{},\22local\22:{{.*}}\22name\22:\22x\22}],\22name\22:\22f\22,\22results\22:[{{.*}}\22name\22:\22y\22}],\22symbol\22:\22tessel_fn_f\22}],\22mesh\22:{\22axes\22:[],\22sizes\22:[]}}\00")

// CHECK-LABEL: llvm.func @tessel_fn_f(%arg0: !llvm.ptr, %arg1: !llvm.ptr, %arg2: !llvm.ptr)
// CHECK: %[[X:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// CHECK: %[[BYTES:.*]] = llvm.mlir.constant(16 : i64) : i64
// CHECK: %[[E:.*]] = llvm.call @tessel_rt_alloc(%arg0, %[[BYTES]])
// CHECK: llvm.store %[[X]], %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK: %[[SITE:.*]] = llvm.mlir.addressof @tessel_site_0
// CHECK: %[[TEXT:.*]] = llvm.mlir.addressof @tessel_op_0
// CHECK: llvm.call @tessel_rt_execute(%arg0, %[[SITE]], %[[TEXT]], %{{.*}}, %{{.*}}, %[[E]])
// CHECK: %[[S:.*]] = llvm.call @tessel_rt_alloc
// CHECK: llvm.call @tessel_rt_execute
// The exp's buffer dies with the reduce, its only user.
// CHECK-NEXT: llvm.call @tessel_rt_free(%arg0, %[[E]])
// CHECK: llvm.store %[[S]], %{{.*}} : !llvm.ptr, !llvm.ptr
// CHECK-NEXT: llvm.return

// CHECK: llvm.mlir.global internal constant @tessel_op_0("{\22attrs\22:{},\22loc\22:\22{{.*}}lower_to_runtime.mlir:{{[0-9]+}}:{{[0-9]+}}\22,\22op\22:\22tessel.exp\22,\22operands\22:[{\22dims\22:[\22n\22],\22shape\22:[4],\22type\22:\22f32\22}],\22result\22:{\22dims\22:[\22n\22],\22shape\22:[4],\22type\22:\22f32\22}}\00")
// CHECK: llvm.mlir.global internal @tessel_site_0()
// CHECK-NEXT: llvm.mlir.zero : !llvm.ptr
// CHECK: llvm.mlir.global internal constant @tessel_op_1("{\22attrs\22:{\22kind\22:\22sum\22},{{.*}}\22op\22:\22tessel.reduce\22
func.func @f(%x: !tessel.tensor<[n:4], f32> {tessel.name = "x"})
    -> (!tessel.tensor<[], f32> {tessel.name = "y"}) {
  %e = tessel.exp %x : !tessel.tensor<[n:4], f32>
  %s = tessel.reduce sum %e : !tessel.tensor<[n:4], f32> -> !tessel.tensor<[], f32>
  return %s : !tessel.tensor<[], f32>
}

// -----

// An argument returned as it is, and a value returned twice, are copied so
// that the caller owns each result buffer once.
// CHECK-LABEL: llvm.func @tessel_fn_g
// CHECK: %[[ARG:.*]] = llvm.load
// CHECK: %[[NEG:.*]] = llvm.call @tessel_rt_alloc
// CHECK: llvm.call @tessel_rt_execute
// CHECK: %[[COPY:.*]] = llvm.call @tessel_rt_alloc
// CHECK: "llvm.intr.memcpy"(%[[COPY]], %[[ARG]]
// CHECK: llvm.store %[[COPY]],
// CHECK: llvm.store %[[NEG]],
// CHECK: %[[TWICE:.*]] = llvm.call @tessel_rt_alloc
// CHECK: "llvm.intr.memcpy"(%[[TWICE]], %[[NEG]]
// CHECK: llvm.store %[[TWICE]],
// CHECK-NOT: tessel_rt_free
// CHECK: llvm.return
func.func @g(%x: !tessel.tensor<[n:2], f32>)
    -> (!tessel.tensor<[n:2], f32>, !tessel.tensor<[n:2], f32>, !tessel.tensor<[n:2], f32>) {
  %y = tessel.neg %x : !tessel.tensor<[n:2], f32>
  return %x, %y, %y : !tessel.tensor<[n:2], f32>, !tessel.tensor<[n:2], f32>, !tessel.tensor<[n:2], f32>
}

// -----

// A partitioned program's metadata keeps the mesh and every argument's
// global type and layout; descriptors hold local types and mesh axes.
// CHECK: @tessel_program_metadata({{.*}}\22global\22:{\22dims\22:[\22b\22],\22shape\22:[8],\22type\22:\22f32\22},\22layout\22:{\22b\22:[\22data\22]},\22local\22:{\22dims\22:[\22b\22],\22shape\22:[4],{{.*}}\22mesh\22:{\22axes\22:[\22data\22],\22sizes\22:[2]}}
// CHECK-NOT: tessel.mesh
// CHECK: \22attrs\22:{\22axes\22:[\22data\22],\22kind\22:\22sum\22}{{.*}}\22op\22:\22tessel.all_reduce\22
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @h(%x: !tessel.tensor<[b:4], f32> {tessel.global_type = !tessel.tensor<[b:8], f32, #tessel.layout<{b = [data]}>>})
      -> !tessel.tensor<[], f32> {
    %p = tessel.reduce sum %x : !tessel.tensor<[b:4], f32> -> !tessel.tensor<[], f32>
    %s = tessel.all_reduce sum %p over ["data"] : !tessel.tensor<[], f32>
    return %s : !tessel.tensor<[], f32>
  }
}

// -----

// JSON has no infinities: the pad value of a max pooling's halo is spelled.
// CHECK: \22attrs\22:{\22axis\22:\22rows\22,\22dim\22:\22h\22,\22halo\22:[1,0],\22pad_value\22:\22-inf\22}
module attributes {tessel.mesh = #tessel.mesh<[rows:2]>} {
  func.func @halo(%x: !tessel.tensor<[h:2], f32>) -> !tessel.tensor<[h:3], f32> {
    %y = tessel.halo_exchange %x along "h" over "rows" halo [1, 0] {pad_value = 0xFFF0000000000000 : f64}
        : !tessel.tensor<[h:2], f32> -> !tessel.tensor<[h:3], f32>
    return %y : !tessel.tensor<[h:3], f32>
  }
}

// -----

// A parameter block's descriptor carries the global type and its layout,
// from which the runtime finds the rank's elements.
// CHECK: \22attrs\22:{\22global_type\22:{\22dims\22:[\22k\22,\22n\22],\22layout\22:{\22n\22:[\22data\22]},\22shape\22:[3,5],\22type\22:\22f32\22},\22init\22:\22normal\22,\22name\22:\22w\22,\22scale\22:0.5,\22seed\22:4}{{.*}}\22op\22:\22tessel.parameter\22{{.*}}\22result\22:{\22dims\22:[\22k\22,\22n\22],\22shape\22:[3,3]
module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
  func.func @block() -> !tessel.tensor<[k:3, n:3], f32> {
    %w = tessel.parameter "w" normal scale 0.5 seed 4
        block of !tessel.tensor<[k:3, n:5], f32, #tessel.layout<{n = [data]}>>
        : !tessel.tensor<[k:3, n:3], f32>
    return %w : !tessel.tensor<[k:3, n:3], f32>
  }
}

// -----

// A fused op is one call; its descriptor lists the body, the inputs
// numbered 0 and 1, the body's results from 2, a splat constant as one
// number, the comparison's kind.
// CHECK-LABEL: llvm.func @tessel_fn_fused
// CHECK: llvm.call @tessel_rt_execute
// CHECK-NOT: llvm.call @tessel_rt_execute
// CHECK: llvm.return
// CHECK: \22attrs\22:{\22body\22:[{\22args\22:[],\22attrs\22:{\22value\22:0},\22op\22:\22tessel.constant\22,\22result\22:{\22dims\22:[],\22shape\22:[],\22type\22:\22f32\22}},{\22args\22:[0,2],\22attrs\22:{\22kind\22:\22gt\22},\22op\22:\22tessel.compare\22,\22result\22:{\22dims\22:[\22n\22],\22shape\22:[4],\22type\22:\22i1\22}},{\22args\22:[3,1,2],\22attrs\22:{},\22op\22:\22tessel.select\22,\22result\22:{\22dims\22:[\22n\22],\22shape\22:[4],\22type\22:\22f32\22}}]}
// CHECK-SAME: \22op\22:\22tessel.fused\22
func.func @fused(%x: !tessel.tensor<[n:4], f32> {tessel.name = "x"},
                 %dy: !tessel.tensor<[n:4], f32> {tessel.name = "dy"})
    -> (!tessel.tensor<[n:4], f32> {tessel.name = "dx"}) {
  %dx = tessel.fused %x, %dy : (!tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>) -> !tessel.tensor<[n:4], f32> {
  ^bb0(%a: !tessel.tensor<[n:4], f32>, %b: !tessel.tensor<[n:4], f32>):
    %zero = tessel.constant 0.0 : f32 -> !tessel.tensor<[], f32>
    %positive = tessel.compare gt, %a, %zero : !tessel.tensor<[n:4], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[n:4], i1>
    %y = tessel.select %positive, %b, %zero : !tessel.tensor<[n:4], i1>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[n:4], f32>
    tessel.yield %y : !tessel.tensor<[n:4], f32>
  }
  return %dx : !tessel.tensor<[n:4], f32>
}

// -----

// A fused op of two results: both buffers are allocated, the second goes
// into the operand array after the two inputs (three pointers in all), and
// the descriptor names its type ("more_results") and its body value
// ("outputs"): a yielded input is copied into an entry of its own
// (value 5), the cast (value 3) is written from its own value.
// CHECK-LABEL: llvm.func @tessel_fn_two_results
// CHECK: %[[FIRST:.*]] = llvm.call @tessel_rt_alloc
// CHECK: %[[SECOND:.*]] = llvm.call @tessel_rt_alloc
// CHECK: %[[THIRD:.*]] = llvm.call @tessel_rt_alloc
// CHECK: %[[SLOT2:.*]] = llvm.getelementptr %[[ARRAY:.*]][2]
// CHECK-NEXT: llvm.store %[[SECOND]], %[[SLOT2]]
// CHECK-NEXT: %[[SLOT3:.*]] = llvm.getelementptr %[[ARRAY]][3]
// CHECK-NEXT: llvm.store %[[THIRD]], %[[SLOT3]]
// CHECK-NEXT: %[[COUNT:.*]] = llvm.mlir.constant(4 : i32)
// CHECK: llvm.call @tessel_rt_execute(%{{.*}}, %{{.*}}, %{{.*}}, %[[ARRAY]], %[[COUNT]], %[[FIRST]])
// CHECK-NOT: llvm.call @tessel_rt_execute
// CHECK: llvm.return
// CHECK: {\22args\22:[0,0],\22attrs\22:{},\22op\22:\22tessel.max\22,{{.*}}\22outputs\22:[5,3]}
// CHECK-SAME: \22more_results\22:[{\22dims\22:[\22n\22],\22shape\22:[4],\22type\22:\22f32\22},{\22dims\22:[\22n\22],\22shape\22:[4],\22type\22:\22bf16\22}]
func.func @two_results(%x: !tessel.tensor<[n:4], f32> {tessel.name = "x"},
                       %dy: !tessel.tensor<[n:4], f32> {tessel.name = "dy"})
    -> (!tessel.tensor<[n:4], f32> {tessel.name = "a"},
        !tessel.tensor<[n:4], f32> {tessel.name = "b"},
        !tessel.tensor<[n:4], bf16> {tessel.name = "c"}) {
  %a, %b, %c = tessel.fused %x, %dy : (!tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>) -> (!tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], bf16>) {
  ^bb0(%p: !tessel.tensor<[n:4], f32>, %q: !tessel.tensor<[n:4], f32>):
    %n = tessel.neg %p : !tessel.tensor<[n:4], f32> -> !tessel.tensor<[n:4], f32>
    %h = tessel.cast %n : !tessel.tensor<[n:4], f32> -> !tessel.tensor<[n:4], bf16>
    %s = tessel.mul %n, %q : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32> -> !tessel.tensor<[n:4], f32>
    tessel.yield %s, %p, %h : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], bf16>
  }
  return %a, %b, %c : !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[n:4], bf16>
}

// -----

// Boolean constants are 0 and 1 in descriptors (an i1's one bit read as
// signed would be -1), as a splat and as a list.
// CHECK-LABEL: llvm.func @tessel_fn_masks
// CHECK: \22attrs\22:{\22value\22:1},{{.*}}\22op\22:\22tessel.constant\22
// CHECK: \22attrs\22:{\22value\22:[1,0,1,0]},{{.*}}\22op\22:\22tessel.constant\22
func.func @masks(%a: !tessel.tensor<[n:4], f32> {tessel.name = "a"})
    -> (!tessel.tensor<[n:4], f32> {tessel.name = "y"}) {
  %all = tessel.constant true -> !tessel.tensor<[n:4], i1>
  %some = tessel.constant dense<[true, false, true, false]> : tensor<4xi1> -> !tessel.tensor<[n:4], i1>
  %zero = tessel.constant 0.0 : f32 -> !tessel.tensor<[], f32>
  %kept = tessel.select %all, %a, %zero : !tessel.tensor<[n:4], i1>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[n:4], f32>
  %y = tessel.select %some, %kept, %zero : !tessel.tensor<[n:4], i1>, !tessel.tensor<[n:4], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[n:4], f32>
  return %y : !tessel.tensor<[n:4], f32>
}

// -----

// A rename whose operand dies with it keeps the operand's buffer: no
// buffer of its own, no kernel, and the buffer is freed once, after the
// last use of the renamed value. A rename of a value used again later
// copies it into a buffer of its own.
// CHECK-LABEL: llvm.func @tessel_fn_renames
// CHECK: %[[E:.*]] = llvm.call @tessel_rt_alloc
// CHECK: llvm.call @tessel_rt_execute
// The first rename: nothing is called for it.
// CHECK-NOT: llvm.call
// CHECK: %[[F:.*]] = llvm.call @tessel_rt_alloc
// CHECK: llvm.store %[[E]],
// CHECK: llvm.call @tessel_rt_execute
// CHECK-NEXT: llvm.call @tessel_rt_free(%arg0, %[[E]])
// The second rename copies %f, which the add reads after it; the third
// keeps the copy's buffer.
// CHECK: %[[G:.*]] = llvm.call @tessel_rt_alloc
// CHECK: llvm.store %[[F]],
// CHECK: llvm.call @tessel_rt_execute
// CHECK-NOT: llvm.call
// CHECK: llvm.call @tessel_rt_alloc
// CHECK: llvm.store %[[G]],
// CHECK: llvm.call @tessel_rt_execute
// CHECK-DAG: llvm.call @tessel_rt_free(%arg0, %[[F]])
// CHECK-DAG: llvm.call @tessel_rt_free(%arg0, %[[G]])
// CHECK-NOT: tessel_rt_free
// CHECK: llvm.return
// One rename runs, the copy.
// CHECK: \22op\22:\22tessel.rename\22
// CHECK-NOT: \22op\22:\22tessel.rename\22
func.func @renames(%x: !tessel.tensor<[n:4], f32>) -> !tessel.tensor<[m:4], f32> {
  %e = tessel.exp %x : !tessel.tensor<[n:4], f32>
  %r = tessel.rename %e : !tessel.tensor<[n:4], f32> -> !tessel.tensor<[m:4], f32>
  %f = tessel.neg %r : !tessel.tensor<[m:4], f32>
  %g = tessel.rename %f : !tessel.tensor<[m:4], f32> -> !tessel.tensor<[n:4], f32>
  %h = tessel.rename %g : !tessel.tensor<[n:4], f32> -> !tessel.tensor<[m:4], f32>
  %s = tessel.add %h, %f : !tessel.tensor<[m:4], f32>, !tessel.tensor<[m:4], f32> -> !tessel.tensor<[m:4], f32>
  return %s : !tessel.tensor<[m:4], f32>
}
