// A linear layer, a bias and a sum over the features in upstream named linalg
// ops, without tessel attributes (tests/lit/tools/import_shard.test).
shard.grid @grid(shape = 4)
func.func @forward(%x: tensor<8x16xf32>, %w: tensor<16x32xf32>, %b: tensor<32xf32>) -> tensor<8xf32> {
  %split_columns = shard.sharding @grid split_axes = [[], [0]] : !shard.sharding
  %w_split = shard.shard %w to %split_columns annotate_for_users : tensor<16x32xf32>
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<8x32xf32>
  %filled = linalg.fill ins(%zero : f32) outs(%empty : tensor<8x32xf32>) -> tensor<8x32xf32>
  %y = linalg.matmul ins(%x, %w_split : tensor<8x16xf32>, tensor<16x32xf32>) outs(%filled : tensor<8x32xf32>) -> tensor<8x32xf32>
  %bias = linalg.broadcast ins(%b : tensor<32xf32>) outs(%empty : tensor<8x32xf32>) dimensions = [0]
  %z = linalg.add ins(%y, %bias : tensor<8x32xf32>, tensor<8x32xf32>) outs(%empty : tensor<8x32xf32>) -> tensor<8x32xf32>
  %rows = tensor.empty() : tensor<8xf32>
  %rows_zero = linalg.fill ins(%zero : f32) outs(%rows : tensor<8xf32>) -> tensor<8xf32>
  %sum = linalg.reduce ins(%z : tensor<8x32xf32>) outs(%rows_zero : tensor<8xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %replicated = shard.sharding @grid split_axes = [[]] : !shard.sharding
  %out = shard.shard %sum to %replicated : tensor<8xf32>
  return %out : tensor<8xf32>
}
