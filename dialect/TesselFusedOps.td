//===- TesselFusedOps.td - fused element-wise computations -*- tablegen -*-===//
//
// Ops that tessel-fuse-elementwise creates in a rank's program just before
// it is lowered to runtime calls: a chain of element-wise ops computed in
// one pass over the data, so that the intermediate tensors are never
// stored and the chain costs one runtime call instead of one per op.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_FUSED_OPS_TD
#define TESSEL_FUSED_OPS_TD

include "dialect/TesselDialect.td"
include "dialect/TesselTypes.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Tessel_FusedOp : Tessel_Op<"fused", [Pure, IsolatedFromAbove,
    SingleBlock]> {
  let summary = "element-wise ops computed together, element by element, perhaps summed";
  let description = [{
    Computes its body for every element of its result. The body's block
    arguments are the inputs; its ops are element-wise ops (unary, binary,
    `compare`, `select`, `cast`) and splat `constant`s, each of which, but the
    constants, has the result's dimensions (in any order): the body computes
    one result element from the input elements at the same index, with the
    inputs broadcast by name as the element-wise ops broadcast them. The
    value the body yields is the result.

    Example (AdamW's first moment, `b1 * m + (1 - b1) * g`):

    ```mlir
    %m2 = tessel.fused %m, %g, %b1, %c1
        : (!tessel.tensor<[i:64, o:32], f32>, !tessel.tensor<[i:64, o:32], f32>,
           !tessel.tensor<[], f32>, !tessel.tensor<[], f32>)
        -> !tessel.tensor<[i:64, o:32], f32> {
    ^bb0(%a: !tessel.tensor<[i:64, o:32], f32>, %b: !tessel.tensor<[i:64, o:32], f32>,
         %s: !tessel.tensor<[], f32>, %t: !tessel.tensor<[], f32>):
      %x = tessel.mul %a, %s : !tessel.tensor<[i:64, o:32], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[i:64, o:32], f32>
      %y = tessel.mul %b, %t : !tessel.tensor<[i:64, o:32], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[i:64, o:32], f32>
      %z = tessel.add %x, %y : !tessel.tensor<[i:64, o:32], f32>, !tessel.tensor<[i:64, o:32], f32> -> !tessel.tensor<[i:64, o:32], f32>
      tessel.yield %z : !tessel.tensor<[i:64, o:32], f32>
    }
    ```

    The body may instead end in a `tessel.reduce` (sum or mean) of its last
    element-wise value that keeps a run of that value's dimensions in
    their order (leading, ending them, or between summed ones, as a batch
    norm keeps its channels) and yield it: the fused result
    is then that sum (the squared norm of a gradient, `sum(g * g)` over
    every dimension, in one pass over `g` and with no buffer for `g * g`;
    a bias's gradient, summed over the leading batch dims; a row mean).

    ```mlir
    %sq = tessel.fused %g : (!tessel.tensor<[i:64, o:32], f32>)
        -> !tessel.tensor<[], f32> {
    ^bb0(%a: !tessel.tensor<[i:64, o:32], f32>):
      %s = tessel.mul %a, %a : !tessel.tensor<[i:64, o:32], f32>, !tessel.tensor<[i:64, o:32], f32> -> !tessel.tensor<[i:64, o:32], f32>
      %t = tessel.reduce sum %s : !tessel.tensor<[i:64, o:32], f32> -> !tessel.tensor<[], f32>
      tessel.yield %t : !tessel.tensor<[], f32>
    }
    ```

    A body may yield several values, one per result: the results after the
    first have the dimensions and sizes of the values the body computes
    (the first result's, or the value summed's), in that order (their
    element types may differ). tessel-merge-fused-outputs makes such an op
    of a fused chain and the fused chain or sum after it that reads its
    value, so that an optimizer's new moments and its new parameter are
    written in one pass over the gradient and the old state instead of
    three, and a bias's gradient is summed in the pass that writes the
    gradient it sums (`!T` is the parameter's type; SGD with momentum
    here):

    ```mlir
    %m2, %p2 = tessel.fused %m, %g, %p, %lr
        : (!T, !T, !T, !tessel.tensor<[], f32>) -> (!T, !T) {
    ^bb0(%a: !T, %b: !T, %c: !T, %s: !tessel.tensor<[], f32>):
      %x = tessel.add %a, %b : !T, !T -> !T
      %y = tessel.mul %x, %s : !T, !tessel.tensor<[], f32> -> !T
      %z = tessel.sub %c, %y : !T, !T -> !T
      tessel.yield %z, %x : !T, !T
    }
    ```

    Constraints checked by the verifier: one block argument per input, of
    its type; the body's ops are element-wise ops or splat constants, and
    perhaps a last sum or mean keeping a run of dimensions in order, which
    the body yields as its first value; every op but the constants and the
    sum has the first result's dimensions and sizes (those of the value
    summed, where there is a sum); there is a yielded value per result, of
    its type; every other result has the dimensions and sizes of the first
    one (of the value summed, where there is a sum), in that order.
  }];
  let arguments = (ins Variadic<Tessel_Tensor>:$inputs);
  let results = (outs Variadic<Tessel_Tensor>:$results);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    $inputs attr-dict `:` functional-type($inputs, $results) $body
  }];
  let hasVerifier = 1;
  let skipDefaultBuilders = 1;
  let builders = [
    // The op with an empty body block whose arguments have the inputs'
    // types; the caller fills the block and ends it with tessel.yield.
    OpBuilder<(ins "TypeRange":$resultTypes, "ValueRange":$inputs)>
  ];
}

def Tessel_YieldOp : Tessel_Op<"yield", [Pure, Terminator, ReturnLike,
    HasParent<"FusedOp">]> {
  let summary = "the value a fused body computes";
  let description = [{
    Ends the body of a `tessel.fused` op with the value of each of its
    results, in order.

    Example:

    ```mlir
    tessel.yield %z : !tessel.tensor<[i:64, o:32], f32>
    ```
  }];
  let arguments = (ins Variadic<Tessel_Tensor>:$values);
  let assemblyFormat = "$values attr-dict `:` qualified(type($values))";
}

#endif // TESSEL_FUSED_OPS_TD
