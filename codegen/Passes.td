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
    copied, so that the caller owns every result buffer. The module's
    metadata (mesh, and each function's arguments and results with their
    names, global and local types and layouts) becomes the constant
    `tessel_program_metadata`, which the runtime's driver reads.

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
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // TESSEL_CODEGEN_PASSES_TD
