// Rows split over the grid, then gathered for a replicated result
// (tests/lit/tools/import_shard.test): the rule splits the rows, and the
// result, annotated whole, gets an override.
shard.grid @grid(shape = 2) {tessel.axes = ["data"]}
func.func @forward(%x: tensor<8x16xf32>, %w: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %rows = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %whole = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %x_rows = shard.shard %x to %rows annotate_for_users : tensor<8x16xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x4xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y = linalg.matmul ins(%x_rows, %w : tensor<8x16xf32>, tensor<16x4xf32>) outs(%filled : tensor<8x4xf32>) -> tensor<8x4xf32>
  %y_rows = shard.shard %y to %rows : tensor<8x4xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%y_rows : tensor<8x4xf32>) outs(%empty : tensor<8x4xf32>) {
  ^bb0(%a: f32, %b: f32):
    %h = math.tanh %a : f32
    linalg.yield %h : f32
  } -> tensor<8x4xf32>
  %t_rows = shard.shard %t to %rows : tensor<8x4xf32>
  %out = shard.shard %t_rows to %whole : tensor<8x4xf32>
  return %out : tensor<8x4xf32>
}
