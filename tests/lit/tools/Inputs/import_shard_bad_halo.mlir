// tests/lit/tools/import_shard.test: what import-shard refuses (halo).
shard.grid @grid(shape = 2)
func.func @forward(%x: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %s = shard.sharding @grid split_axes = [[0]] halo_sizes = [1, 1] : !shard.sharding
  %y = shard.shard %x to %s annotate_for_users : tensor<8x16xf32>
  return %y : tensor<8x16xf32>
}
