// A padded, strided convolution, a ReLU and the mean
// (tests/lit/tools/export_shard.test, import_shard.test).
func.func @forward(%x: !tessel.tensor<[batch:4, c:3, h:8, w:8], f32> {tessel.name = "x"}) -> !tessel.tensor<[], f32> {
  %k = tessel.parameter "k" normal scale 0.2 seed 1 : !tessel.tensor<[c:3, f:5, kh:3, kw:3], f32>
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>}
      : !tessel.tensor<[batch:4, c:3, h:8, w:8], f32>, !tessel.tensor<[c:3, f:5, kh:3, kw:3], f32> -> !tessel.tensor<[batch:4, f:5, h:4, w:4], f32>
  %r = tessel.relu %y : !tessel.tensor<[batch:4, f:5, h:4, w:4], f32>
  %m = tessel.reduce mean %r : !tessel.tensor<[batch:4, f:5, h:4, w:4], f32> -> !tessel.tensor<[], f32>
  return %m : !tessel.tensor<[], f32>
}
