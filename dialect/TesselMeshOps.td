//===- TesselMeshOps.td - mesh-level ops -------------------*- tablegen -*-===//
//
// Ops the partitioner creates. They run on every rank of a partitioned
// program, over that rank's local shard, and communicate within the groups
// of ranks that differ only in the named mesh axes. The mesh is the
// `tessel.mesh` attribute of the enclosing module. Inside a group, members
// are ordered row-major over their coordinates on the named axes, in the
// order the axes are listed.
//
//===----------------------------------------------------------------------===//

#ifndef TESSEL_MESH_OPS_TD
#define TESSEL_MESH_OPS_TD

include "dialect/TesselDialect.td"
include "dialect/TesselEnums.td"
include "dialect/TesselTypes.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

// Every rank runs the same program, so a collective whose result no rank
// uses can go on every rank at once: the mesh-level ops are pure.
class Tessel_MeshOp<string mnemonic, list<Trait> traits = []>
    : Tessel_Op<mnemonic, !listconcat([Pure], traits)> {
  let hasVerifier = 1;
}

def Tessel_AllReduceOp : Tessel_MeshOp<"all_reduce"> {
  let summary = "combine a value across a mesh-axis group";
  let description = [{
    Every member receives the element-wise `sum`, `max` or `min` of all
    members' tensors.

    Example:

    ```mlir
    %s = tessel.all_reduce sum %partial over ["model"]
        : !tessel.tensor<[batch:16, hidden:256], f32>
    ```

    Constraints checked by the verifier: the module has a mesh; `axes` is not
    empty, has no repeats and names mesh axes.
  }];
  let arguments = (ins Tessel_CollectiveKind:$kind, Tessel_Tensor:$input,
                   StrArrayAttr:$axes);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $kind $input `over` $axes attr-dict `:`
    custom<SameShapeTypes>(type($input), type($result))
  }];
}

def Tessel_AllGatherOp : Tessel_MeshOp<"all_gather"> {
  let summary = "concatenate the group's shards along one dimension";
  let description = [{
    Every member receives the members' tensors concatenated along `dim` in
    group order.

    Example:

    ```mlir
    %g = tessel.all_gather %x along "hidden" over ["model"]
        : !tessel.tensor<[batch:16, hidden:64], f32>
        -> !tessel.tensor<[batch:16, hidden:256], f32>
    ```

    Constraints checked by the verifier: axes as for all_reduce; `dim` is a
    dimension of the input; the result has the input's dimensions, with
    `dim` multiplied by the group size.
  }];
  let arguments = (ins Tessel_Tensor:$input, StrAttr:$dim, StrArrayAttr:$axes);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `along` $dim `over` $axes attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
}

def Tessel_ReduceScatterOp : Tessel_MeshOp<"reduce_scatter"> {
  let summary = "combine across a group and keep one block each";
  let description = [{
    Combines the members' tensors like all_reduce, then the member at group
    position `p` keeps the `p`-th of the group-size equal blocks along `dim`.

    Example:

    ```mlir
    %r = tessel.reduce_scatter sum %x along "hidden" over ["model"]
        : !tessel.tensor<[batch:16, hidden:256], f32>
        -> !tessel.tensor<[batch:16, hidden:64], f32>
    ```

    Constraints checked by the verifier: axes as for all_reduce; `dim` is a
    dimension of the input whose size the group size divides; the result has
    the input's dimensions, with `dim` divided by the group size.
  }];
  let arguments = (ins Tessel_CollectiveKind:$kind, Tessel_Tensor:$input,
                   StrAttr:$dim, StrArrayAttr:$axes);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $kind $input `along` $dim `over` $axes attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
}

def Tessel_AllToAllOp : Tessel_MeshOp<"all_to_all"> {
  let summary = "move a split from one dimension to another";
  let description = [{
    Each member cuts its tensor into group-size equal blocks along
    `split_dim`; the member at position `j` receives block `j` of every
    member and concatenates them along `concat_dim` in group order.

    Example (a split of `heads` becomes a split of `seq`):

    ```mlir
    %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"]
        : !tessel.tensor<[heads:2, seq:64], f32>
        -> !tessel.tensor<[heads:8, seq:16], f32>
    ```

    Constraints checked by the verifier: axes as for all_reduce; both
    dimensions exist; the group size divides `split_dim`; the result has the
    input's dimensions with `split_dim` divided and `concat_dim` multiplied
    by the group size.
  }];
  let arguments = (ins Tessel_Tensor:$input, StrAttr:$split_dim,
                   StrAttr:$concat_dim, StrArrayAttr:$axes);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `split` $split_dim `concat` $concat_dim `over` $axes attr-dict `:`
    qualified(type($input)) `->` qualified(type($result))
  }];
}

def Tessel_HaloExchangeOp : Tessel_MeshOp<"halo_exchange"> {
  let summary = "append the neighbours' boundary rows along a split dimension";
  let description = [{
    Along one mesh axis, each member prepends the last `low` rows (along
    `dim`) of its predecessor and appends the first `high` rows of its
    successor. Members at the ends of the axis have no neighbour on that side
    and receive rows filled with `pad_value`, so every member has the same
    shape. This is what a convolution or pooling over a split spatial
    dimension needs before it can compute locally.

    Example:

    ```mlir
    %h = tessel.halo_exchange %x along "h" over "rows" halo [1, 1]
        : !tessel.tensor<[batch:8, h:7, w:28], f32>
        -> !tessel.tensor<[batch:8, h:9, w:28], f32>
    ```

    Constraints checked by the verifier: the module has a mesh with `axis`;
    `dim` is an input dimension at least as large as each halo; halos are not
    negative; the result has the input's dimensions with `dim` grown by
    `low + high`.
  }];
  let arguments = (ins Tessel_Tensor:$input, StrAttr:$dim, StrAttr:$axis,
                   DenseI64ArrayAttr:$halo,
                   DefaultValuedAttr<F64Attr, "0.0">:$pad_value);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `along` $dim `over` $axis `halo` $halo attr-dict `:` qualified(type($input))
    `->` qualified(type($result))
  }];
}

def Tessel_CollectivePermuteOp : Tessel_MeshOp<"collective_permute"> {
  let summary = "send each member's tensor to another member of its group";
  let description = [{
    `pairs` lists `(source, target)` group positions flattened into one
    array. The member at each target receives its source's tensor; a member
    that is no target receives zeros.

    Example (a cyclic shift by one over a 4-member axis):

    ```mlir
    %p = tessel.collective_permute %x over ["model"]
        pairs [0, 1, 1, 2, 2, 3, 3, 0] : !tessel.tensor<[k:4], f32>
    ```

    Constraints checked by the verifier: axes as for all_reduce; `pairs` has
    an even length; positions lie in the group; no target appears twice.
  }];
  let arguments = (ins Tessel_Tensor:$input, StrArrayAttr:$axes,
                   DenseI64ArrayAttr:$pairs);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `over` $axes `pairs` $pairs attr-dict `:`
    custom<SameShapeTypes>(type($input), type($result))
  }];
}

def Tessel_ShardSliceOp : Tessel_MeshOp<"shard_slice"> {
  let summary = "keep this rank's block of a replicated dimension";
  let description = [{
    The member at group position `p` keeps block `p` of the group-size equal
    blocks along `dim`. No data moves: this is how a replicated value becomes
    split. When the group size g does not divide the dimension's size n
    (a `pad_uneven` layout), every block has ceil(n / g) elements and the
    positions past n hold zeros.

    Example:

    ```mlir
    %s = tessel.shard_slice %x along "hidden" over ["model"]
        : !tessel.tensor<[batch:16, hidden:256], f32>
        -> !tessel.tensor<[batch:16, hidden:64], f32>
    ```

    Constraints checked by the verifier: the axes are distinct axes of the
    mesh, `dim` is a dimension of the input, and the result is the input
    with `dim` of size ceil(n / g).
  }];
  let arguments = (ins Tessel_Tensor:$input, StrAttr:$dim, StrArrayAttr:$axes);
  let results = (outs Tessel_Tensor:$result);
  let assemblyFormat = [{
    $input `along` $dim `over` $axes attr-dict `:` qualified(type($input)) `->` qualified(type($result))
  }];
}

#endif // TESSEL_MESH_OPS_TD
