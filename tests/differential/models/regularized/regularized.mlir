// Dropout and grouped convolutions on the way from the data to a scalar
// loss, for the differential sweep: a grouped convolution (2 groups of 2
// channels, 6 outputs) and a depthwise one (6 groups of 1) over an image,
// dropout of the feature map, a projection to hidden units and dropout of
// them, both dropouts drawn from `dropout_step` (an input, as tessel run
// feeds it). Under the sweep's layouts the batch, the rows, hidden and the
// channels are split: every rank draws its block's mask from the global
// indices, so every layout computes what one rank does, the training step
// (gradients through both dropouts and both grouped convolutions) too.
func.func @forward(
    %x: !tessel.tensor<[batch:6, c:4, h:6, w:6], f32> {tessel.name = "x"},
    %step: !tessel.tensor<[], i64> {tessel.name = "dropout_step"})
    -> !tessel.tensor<[], f32> {
  %k = tessel.parameter "k" normal scale 0.3 seed 1
      : !tessel.tensor<[c:2, f:6, kh:3, kw:3], f32>
  %d = tessel.parameter "d" normal scale 0.3 seed 2
      : !tessel.tensor<[f:1, g:6, kh:3, kw:3], f32>
  %w = tessel.parameter "w" normal scale 0.2 seed 3
      : !tessel.tensor<[g:6, w:6, hidden:10], f32>

  %y = tessel.conv2d %x, %k {input_channel = "c", output_channel = "f",
                             spatial = ["h", "w"], kernel = ["kh", "kw"],
                             padding = array<i64: 1, 1, 1, 1>, groups = 2}
      : !tessel.tensor<[batch:6, c:4, h:6, w:6], f32>,
        !tessel.tensor<[c:2, f:6, kh:3, kw:3], f32>
      -> !tessel.tensor<[batch:6, f:6, h:6, w:6], f32>
  %ty = tessel.tanh %y : !tessel.tensor<[batch:6, f:6, h:6, w:6], f32>
  // Depthwise: each of the 6 channels its own 3x3 filter.
  %z = tessel.conv2d %ty, %d {input_channel = "f", output_channel = "g",
                              spatial = ["h", "w"], kernel = ["kh", "kw"],
                              padding = array<i64: 1, 1, 1, 1>, groups = 6}
      : !tessel.tensor<[batch:6, f:6, h:6, w:6], f32>,
        !tessel.tensor<[f:1, g:6, kh:3, kw:3], f32>
      -> !tessel.tensor<[batch:6, g:6, h:6, w:6], f32>
  %dz = tessel.dropout %z step %step rate 0.2 seed 11
      : !tessel.tensor<[batch:6, g:6, h:6, w:6], f32>, !tessel.tensor<[], i64>
  %hid = tessel.einsum %dz, %w
      : (!tessel.tensor<[batch:6, g:6, h:6, w:6], f32>,
         !tessel.tensor<[g:6, w:6, hidden:10], f32>)
      -> !tessel.tensor<[batch:6, h:6, hidden:10], f32>
  %act = tessel.tanh %hid : !tessel.tensor<[batch:6, h:6, hidden:10], f32>
  %dh = tessel.dropout %act step %step rate 0.5 seed 12
      : !tessel.tensor<[batch:6, h:6, hidden:10], f32>, !tessel.tensor<[], i64>
  %sq = tessel.mul %dh, %dh
      : !tessel.tensor<[batch:6, h:6, hidden:10], f32>,
        !tessel.tensor<[batch:6, h:6, hidden:10], f32>
      -> !tessel.tensor<[batch:6, h:6, hidden:10], f32>
  %loss = tessel.reduce mean %sq
      : !tessel.tensor<[batch:6, h:6, hidden:10], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
