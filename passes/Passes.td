//===- Passes.td - tessel's passes -------------------------*- tablegen -*-===//

#ifndef TESSEL_PASSES_TD
#define TESSEL_PASSES_TD

include "mlir/Pass/PassBase.td"

def TesselApplyLayout : Pass<"tessel-apply-layout", "::mlir::ModuleOp"> {
  let summary = "give every tensor its layout on the device mesh";
  let description = [{
    Reads a layout (a YAML file, or Mesh-TensorFlow's mesh and rules strings),
    records its mesh as the module's `tessel.mesh` attribute, and gives every
    function argument and op result the layout the rules and overrides
    decide for it: a dimension named by a rule is split over the rule's mesh
    axes, unless an override for the value's name (`tessel.name`, or a
    parameter's name) says otherwise.

    Every split is checked: an axis used twice in one tensor, a split that
    does not divide its dimension, an override naming a tensor or dimension
    that does not exist are errors at the value's location, with a note at
    the rule in the layout file. A rule that matches no tensor is a warning.

    Before, with `--tessel-apply-layout="mesh=data:2 rules=batch:data"`:

    ```mlir
    func.func @f(%x: !tessel.tensor<[batch:8, hidden:4], f32>) ...
    ```

    After:

    ```mlir
    module attributes {tessel.mesh = #tessel.mesh<[data:2]>} {
      func.func @f(%x: !tessel.tensor<[batch:8, hidden:4], f32,
                                      #tessel.layout<{batch = [data]}>>) ...
    ```
  }];
  let options = [
    Option<"layoutFile", "layout-file", "std::string", /*default=*/"",
           "a YAML layout file">,
    Option<"meshSpec", "mesh", "std::string", /*default=*/"",
           "the mesh in string syntax, e.g. \"data:2;model:4\"">,
    Option<"rulesSpec", "rules", "std::string", /*default=*/"",
           "the rules in string syntax, e.g. \"batch:data;hidden:model\"">,
  ];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

def TesselPartition : Pass<"tessel-partition", "::mlir::ModuleOp"> {
  let summary = "turn a program over laid-out global tensors into the program every rank runs";
  let description = [{
    Rewrites every function of a module whose values carry layouts (after
    tessel-apply-layout) into the SPMD program one rank runs: every value
    becomes the rank's local block, and mesh-level ops move data where an op
    needs it.

    - einsum runs locally on blocks; a contracted dimension that is split
      leaves a partial sum, reduced with all_reduce over its axes.
    - element-wise ops (unary, binary, compare, select, cast) run locally
      once their operands have the result's layout.
    - reduce over a split dimension reduces locally, then all_reduce
      (`mean` as a sum scaled by the global count).
    - every other op (softmax, cross-entropy, layer norm, convolution,
      pooling, lookups, shape ops) gathers the dimensions it works across,
      runs on its local operands, and slices its result to its layout.
    - resharding between two layouts gathers the dimensions whose split
      changes (all_gather) and then slices them to the new split
      (shard_slice), dimension by dimension.

    Each function argument and result keeps its global type in a
    `tessel.global_type` attribute, so that tools can hand every rank its
    block of the inputs and reassemble the outputs.

    Before:

    ```mlir
    %h = tessel.einsum %x, %w
        : (!tessel.tensor<[batch:8, k:4], f32, #tessel.layout<{k = [model]}>>,
           !tessel.tensor<[k:4, n:2], f32, #tessel.layout<{k = [model]}>>)
        -> !tessel.tensor<[batch:8, n:2], f32>
    ```

    After, on `model:2`:

    ```mlir
    %p = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, k:2], f32>,
                                 !tessel.tensor<[k:2, n:2], f32>)
        -> !tessel.tensor<[batch:8, n:2], f32>
    %h = tessel.all_reduce sum %p over ["model"] : !tessel.tensor<[batch:8, n:2], f32>
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

def TesselOptimizeComm : Pass<"tessel-optimize-comm", "::mlir::ModuleOp"> {
  let summary = "replace communication patterns by cheaper collectives";
  let description = [{
    Rewrites patterns of mesh-level ops in a partitioned program:

    - `all_reduce` whose only use keeps one block of it (`shard_slice` over
      the same axes) becomes one `reduce_scatter`, which sends half as much;
    - `all_gather` along a dimension whose result is sliced back along the
      same dimension over the same axes is the rank's own block: both go;
    - `all_gather` along one dimension sliced along another over the same
      axes moves the split from one dimension to the other: one
      `all_to_all`, which sends a 1/g share instead of the whole gather.

    Before:

    ```mlir
    %s = tessel.all_reduce sum %p over ["model"] : !tessel.tensor<[b:4, n:8], f32>
    %k = tessel.shard_slice %s along "n" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:2], f32>
    ```

    After:

    ```mlir
    %k = tessel.reduce_scatter sum %p along "n" over ["model"]
        : !tessel.tensor<[b:4, n:8], f32> -> !tessel.tensor<[b:4, n:2], f32>
    ```
  }];
  let dependentDialects = ["::mlir::tessel::TesselDialect"];
}

#endif // TESSEL_PASSES_TD
