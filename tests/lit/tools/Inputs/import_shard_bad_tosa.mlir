// tests/lit/tools/import_shard.test: what import-shard refuses (tosa).
shard.grid @grid(shape = 2)
func.func @forward(%x: tensor<8x16xf32>, %y: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %z = tosa.add %x, %y : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %z : tensor<8x16xf32>
}
