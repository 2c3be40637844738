// A tensor name that is not UTF-8: the byte 0xff, escaped as MLIR writes it.
func.func @model(%x: !tessel.tensor<[batch:8, heads:4], f32> {tessel.name = "ima\FFes"}) -> !tessel.tensor<[batch:8, heads:4], f32> {
  return %x : !tessel.tensor<[batch:8, heads:4], f32>
}
