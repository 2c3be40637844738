//===- Passes.td - tessel's code generation passes ---------*- tablegen -*-===//

#ifndef TESSEL_CODEGEN_PASSES_TD
#define TESSEL_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def TesselLowerToRuntime : Pass<"tessel-lower-to-runtime", "::mlir::ModuleOp"> {
  let summary = "lower every per-rank function to calls into the runtime's C ABI";
  let description = [{
    Turns each function of a partitioned module (or of an unpartitioned one,
    which runs on one rank) into an LLVM dialect function
    `tessel_fn_<name>(context, arguments, results)` that runs every op
    through `tessel_rt_execute`, as runtime/include/tessel/runtime/program.h
    specifies: each op's result buffer comes from `tessel_rt_alloc` and is
    freed after its last use; the op itself is described to the runtime by
    a JSON descriptor in read-only data (its name, location, local types
    and attributes), parsed once per call site into the call site's cache
    slot. Results that are arguments, or that are returned twice, are
    copied, so that the caller owns every result buffer. A rename or
    reshape whose operand has its last use there keeps the operand's
    buffer and runs nothing. The module's
    metadata (mesh, and each function's arguments and results with their
    names, global and local types and layouts) becomes the constant
    `tessel_program_metadata`, which the runtime's driver reads.

    A collective (all_reduce, all_gather, reduce_scatter, halo_exchange)
    becomes two calls:
    `tessel_rt_start` where the op is, `tessel_rt_wait` right before its
    first user (or the return), and its operand is freed only after the
    wait, so that the ops in between run while its data moves.

    Before:

    ```mlir
    func.func @f(%x: !tessel.tensor<[n:4], f32>) -> !tessel.tensor<[n:4], f32> {
      %y = tessel.exp %x : !tessel.tensor<[n:4], f32>
      return %y : !tessel.tensor<[n:4], f32>
    }
    ```

    After:

    ```mlir
    llvm.mlir.global internal constant @tessel_op_0("{\"op\":\"tessel.exp\",...}\00")
    llvm.func @tessel_fn_f(%context: !llvm.ptr, %arguments: !llvm.ptr, %results: !llvm.ptr) {
      %x = llvm.load %arguments : !llvm.ptr -> !llvm.ptr
      %y = llvm.call @tessel_rt_alloc(%context, %c16) : (!llvm.ptr, i64) -> !llvm.ptr
      llvm.call @tessel_rt_execute(%context, %site, %descriptor, %operands, %c1, %y) : ...
      llvm.store %y, %results : !llvm.ptr, !llvm.ptr
      llvm.return
    }
    ```
  }];
  let options = [
    Option<"overlapCommunication", "overlap-communication", "bool",
           /*default=*/"true",
           "start all_reduce, all_gather, reduce_scatter and "
           "halo_exchange with tessel_rt_start where they are and wait for them with "
           "tessel_rt_wait before their first user, so that the ops in "
           "between overlap the communication; false runs them with "
           "tessel_rt_execute, blocking">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def TesselScheduleCollectives
    : Pass<"tessel-schedule-collectives", "::mlir::func::FuncOp"> {
  let summary = "order ops so that collectives start early and are waited "
                "for late";
  let description = [{
    tessel-lower-to-runtime starts each all_reduce, all_gather,
    reduce_scatter and halo_exchange where it stands and waits for it right
    before its first user; the ops in between run while its data moves.
    This pass reorders a function's ops (a list schedule in their own
    order) so that a collective runs as soon as its operand is computed and
    an op that uses the result of a collective not yet waited for runs only
    when no other op is ready, then the one whose collectives started
    first. In a data-parallel
    training step the gradients' all_reduces thus overlap the rest of the
    backward pass, and the optimizer updates the parameters in the order
    their gradients arrive. Results are unchanged: every op computes its
    results from its operands alone, and every rank starts the collectives
    in the same order. A function with an op the lowering does not take
    (an operand or result that is not a tensor, no result, or several
    results or a region other than a `tessel.fused` op's) is left as it
    is.
  }];
}

def TesselSplitHaloConvolutions
    : Pass<"tessel-split-halo-convolutions", "::mlir::func::FuncOp"> {
  let summary = "compute a convolution's interior rows while its halo "
                "exchange moves";
  let description = [{
    A conv2d whose input is a halo_exchange's result, along one of its
    spatial dimensions and unpadded there (a spatial split,
    docs/partitioning.md), needs the neighbours' rows only for its first
    and last output rows. This pass splits it into the convolution of the
    halo_exchange's operand alone, which gives exactly the interior output
    rows, and the convolutions of the two thin slices of the exchanged
    tensor that give the boundary rows, joined in order with tessel.concat.
    tessel-lower-to-runtime waits for the exchange before its first user,
    so the interior convolution runs while the halos move. Each output
    element is the same sum as before. A convolution is left as it is when
    the stride does not divide the low halo or the local block is smaller
    than the window (no interior rows).

    A conv2d_backward_input whose result gradient is a halo_exchange's
    result along a spatial dimension of stride 1 is split the same way:
    input-gradient row h reads the exchanged rows h + pl - i*d for its
    filter taps i (low padding pl, dilation d), so the rows whose taps all
    fall in the local block come from the halo_exchange's operand alone,
    and the rows at either end from slices of the exchanged tensor, each
    part padded so that every tap reads the row it read before.

    Before:

    ```mlir
    %w = tessel.halo_exchange %x along "h" over "rows" halo [1, 1]
        : !tessel.tensor<[c:1, h:8, w:4], f32> -> !tessel.tensor<[c:1, h:10, w:4], f32>
    %y = tessel.conv2d %w, %k {input_channel = "c", output_channel = "f",
                               spatial = ["h", "w"], kernel = ["kh", "kw"],
                               padding = array<i64: 0, 0, 1, 1>}
        : !tessel.tensor<[c:1, h:10, w:4], f32>, !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>
        -> !tessel.tensor<[f:2, h:8, w:4], f32>
    ```

    After: `conv2d %x` gives rows 1 to 6 (`h:6`), the conv2d of
    `tessel.slice %w` rows 0 to 2 gives row 0 and of rows 7 to 9 row 7, and
    `tessel.concat ... over "h"` joins the three.
  }];
}

#endif // TESSEL_CODEGEN_PASSES_TD
