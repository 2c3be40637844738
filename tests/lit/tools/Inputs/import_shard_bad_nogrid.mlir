// tests/lit/tools/import_shard.test: what import-shard refuses (nogrid).
func.func @forward(%x: tensor<8xf32>) -> tensor<8xf32> {
  return %x : tensor<8xf32>
}
