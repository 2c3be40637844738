// A 3x3 "same" convolution over rows split in 4: each rank receives one
// row from each neighbour (zeros at the image's edges) and convolves its
// block without padding on rows. The 2x2 pooling that follows tiles the
// blocks exactly and needs no halo.
func.func @conv_rows(%x: !tessel.tensor<[batch:8, c:1, hidden:8, w:4], f32>)
    -> !tessel.tensor<[batch:8, f:2, hidden:4, w:2], f32> {
  %k = tessel.parameter "k" normal scale 1.0 seed 1 : !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>
  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f", spatial = ["hidden", "w"],
                             kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>}
      : !tessel.tensor<[batch:8, c:1, hidden:8, w:4], f32>, !tessel.tensor<[c:1, f:2, kh:3, kw:3], f32>
      -> !tessel.tensor<[batch:8, f:2, hidden:8, w:4], f32>
  %p = tessel.pool max %y {spatial = ["hidden", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>}
      : !tessel.tensor<[batch:8, f:2, hidden:8, w:4], f32> -> !tessel.tensor<[batch:8, f:2, hidden:4, w:2], f32>
  return %p : !tessel.tensor<[batch:8, f:2, hidden:4, w:2], f32>
}
