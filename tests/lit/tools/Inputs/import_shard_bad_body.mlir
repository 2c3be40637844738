// tests/lit/tools/import_shard.test: what import-shard refuses (body).
shard.grid @grid(shape = 2)
func.func @forward(%x: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %y = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %b: f32):
    %c = math.atan %a : f32
    linalg.yield %c : f32
  } -> tensor<8xf32>
  return %y : tensor<8xf32>
}
