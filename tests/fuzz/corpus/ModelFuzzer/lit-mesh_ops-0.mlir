// Round trip of every mesh-level op in a module that names its mesh.

module attributes {tessel.mesh = #tessel.mesh<[data:2, model:4]>} {

func.func @all_reduce(%x: !tessel.tensor<[batch:16, hidden:256], f32>)
    -> !tessel.tensor<[batch:16, hidden:256], f32, #tessel.layout<{batch = [data]}>> {
  %s = tessel.all_reduce sum %x over ["model"] : !tessel.tensor<[batch:16, hidden:256], f32>
  %m = tessel.all_reduce max %s over ["data", "model"] : !tessel.tensor<[batch:16, hidden:256], f32>
  %n = tessel.all_reduce min %m over ["data"] : !tessel.tensor<[batch:16, hidden:256], f32>
  // Only the layout of the result may differ.
  %l = tessel.all_reduce sum %n over ["model"] : !tessel.tensor<[batch:16, hidden:256], f32>
      -> !tessel.tensor<[batch:16, hidden:256], f32, #tessel.layout<{batch = [data]}>>
  return %l : !tessel.tensor<[batch:16, hidden:256], f32, #tessel.layout<{batch = [data]}>>
}

func.func @all_gather(%x: !tessel.tensor<[batch:16, hidden:64], f32>)
    -> !tessel.tensor<[batch:32, hidden:256], f32> {
  %g = tessel.all_gather %x along "hidden" over ["model"]
      : !tessel.tensor<[batch:16, hidden:64], f32> -> !tessel.tensor<[batch:16, hidden:256], f32>
  %h = tessel.all_gather %g along "batch" over ["data"]
      : !tessel.tensor<[batch:16, hidden:256], f32> -> !tessel.tensor<[batch:32, hidden:256], f32>
  return %h : !tessel.tensor<[batch:32, hidden:256], f32>
}

func.func @reduce_scatter(%x: !tessel.tensor<[batch:16, hidden:256], f32>)
    -> (!tessel.tensor<[batch:16, hidden:64], f32>, !tessel.tensor<[batch:2, hidden:256], f32>) {
  %r = tessel.reduce_scatter sum %x along "hidden" over ["model"]
      : !tessel.tensor<[batch:16, hidden:256], f32> -> !tessel.tensor<[batch:16, hidden:64], f32>
  // A group over two axes has 8 members.
  %q = tessel.reduce_scatter max %x along "batch" over ["data", "model"]
      : !tessel.tensor<[batch:16, hidden:256], f32> -> !tessel.tensor<[batch:2, hidden:256], f32>
  return %r, %q : !tessel.tensor<[batch:16, hidden:64], f32>, !tessel.tensor<[batch:2, hidden:256], f32>
}

func.func @all_to_all(%x: !tessel.tensor<[heads:2, seq:64], f32>)
    -> !tessel.tensor<[heads:8, seq:16], f32> {
  %t = tessel.all_to_all %x split "seq" concat "heads" over ["model"]
      : !tessel.tensor<[heads:2, seq:64], f32> -> !tessel.tensor<[heads:8, seq:16], f32>
  return %t : !tessel.tensor<[heads:8, seq:16], f32>
}

func.func @halo_exchange(%x: !tessel.tensor<[batch:8, h:7, w:28], f32>)
    -> (!tessel.tensor<[batch:8, h:9, w:28], f32>, !tessel.tensor<[batch:8, h:10, w:28], f32>) {
  %h = tessel.halo_exchange %x along "h" over "model" halo [1, 1]
      : !tessel.tensor<[batch:8, h:7, w:28], f32> -> !tessel.tensor<[batch:8, h:9, w:28], f32>
  %p = tessel.halo_exchange %x along "h" over "data" halo [0, 3] {pad_value = -1.0 : f64}
      : !tessel.tensor<[batch:8, h:7, w:28], f32> -> !tessel.tensor<[batch:8, h:10, w:28], f32>
  return %h, %p : !tessel.tensor<[batch:8, h:9, w:28], f32>, !tessel.tensor<[batch:8, h:10, w:28], f32>
}

func.func @collective_permute(%x: !tessel.tensor<[k:4], f32>) -> !tessel.tensor<[k:4], f32> {
  %p = tessel.collective_permute %x over ["model"]
      pairs [0, 1, 1, 2, 2, 3, 3, 0] : !tessel.tensor<[k:4], f32>
  // Member 1 receives nothing and gets zeros.
  %q = tessel.collective_permute %p over ["data"] pairs [1, 0] : !tessel.tensor<[k:4], f32>
  return %q : !tessel.tensor<[k:4], f32>
}

func.func @shard_slice(%x: !tessel.tensor<[batch:16, hidden:256], f32>)
    -> !tessel.tensor<[batch:16, hidden:64], f32> {
  %s = tessel.shard_slice %x along "hidden" over ["model"]
      : !tessel.tensor<[batch:16, hidden:256], f32> -> !tessel.tensor<[batch:16, hidden:64], f32>
  return %s : !tessel.tensor<[batch:16, hidden:64], f32>
}

}
