// A small convolutional classifier for 28 x 28 Fashion-MNIST images, written
// with named dimensions: conv 3x3 (1 -> 8 channels, same padding), relu,
// 2x2 max pooling, conv 3x3 (8 -> 16 channels), relu, 2x2 max pooling,
// then a dense layer to 10 classes. The second block names its spatial
// dimensions h2 and w2, so that a layout can split the large first block's
// rows and columns without the second one (whose 7 x 7 output would not
// divide). `forward` returns the mean softmax
// cross-entropy of a batch of 8 images against their labels; `evaluate`
// also counts the images whose label has the largest logit.

!images = !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>
!conv1 = !tessel.tensor<[batch:8, f1:8, h:28, w:28], f32>
!pool1 = !tessel.tensor<[batch:8, f1:8, h:14, w:14], f32>
!block2 = !tessel.tensor<[batch:8, f1:8, h2:14, w2:14], f32>
!conv2 = !tessel.tensor<[batch:8, f2:16, h2:14, w2:14], f32>
!pool2 = !tessel.tensor<[batch:8, f2:16, h2:7, w2:7], f32>
!logits = !tessel.tensor<[batch:8, classes:10], f32>

func.func @forward(%x: !images {tessel.name = "images"},
                   %labels: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"})
    -> !tessel.tensor<[], f32> {
  %k1 = tessel.parameter "conv1_w" normal scale 0.33 seed 1
      : !tessel.tensor<[c:1, f1:8, kh:3, kw:3], f32>
  %b1 = tessel.parameter "conv1_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f1:8], f32>
  %k2 = tessel.parameter "conv2_w" normal scale 0.12 seed 2
      : !tessel.tensor<[f1:8, f2:16, kh:3, kw:3], f32>
  %b2 = tessel.parameter "conv2_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f2:16], f32>
  %wd = tessel.parameter "dense_w" normal scale 0.036 seed 3
      : !tessel.tensor<[f2:16, h2:7, w2:7, classes:10], f32>
  %bd = tessel.parameter "dense_b" zeros scale 1.0 seed 0 : !tessel.tensor<[classes:10], f32>

  // Block 1: conv (same padding), bias, relu, 2x2 max pooling.
  %c1 = tessel.conv2d %x, %k1 {input_channel = "c", output_channel = "f1",
                               spatial = ["h", "w"], kernel = ["kh", "kw"],
                               padding = array<i64: 1, 1, 1, 1>}
      : !images, !tessel.tensor<[c:1, f1:8, kh:3, kw:3], f32> -> !conv1
  %c1b = tessel.add %c1, %b1 : !conv1, !tessel.tensor<[f1:8], f32> -> !conv1
  %r1 = tessel.relu %c1b : !conv1
  %p1 = tessel.pool max %r1 {spatial = ["h", "w"], window = array<i64: 2, 2>,
                             strides = array<i64: 2, 2>} : !conv1 -> !pool1

  // Block 2, on the pooled image under new dimension names.
  %x2 = tessel.rename %p1 : !pool1 -> !block2
  %c2 = tessel.conv2d %x2, %k2 {input_channel = "f1", output_channel = "f2",
                                spatial = ["h2", "w2"], kernel = ["kh", "kw"],
                                padding = array<i64: 1, 1, 1, 1>}
      : !block2, !tessel.tensor<[f1:8, f2:16, kh:3, kw:3], f32> -> !conv2
  %c2b = tessel.add %c2, %b2 : !conv2, !tessel.tensor<[f2:16], f32> -> !conv2
  %r2 = tessel.relu %c2b : !conv2
  %p2 = tessel.pool max %r2 {spatial = ["h2", "w2"], window = array<i64: 2, 2>,
                             strides = array<i64: 2, 2>} : !conv2 -> !pool2

  // Dense layer: contracts channels and both spatial dimensions at once.
  %d = tessel.einsum %p2, %wd
      : (!pool2, !tessel.tensor<[f2:16, h2:7, w2:7, classes:10], f32>) -> !logits
  %logits = tessel.add %d, %bd : !logits, !tessel.tensor<[classes:10], f32> -> !logits

  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !logits, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}

func.func @evaluate(%x: !images {tessel.name = "images"},
                    %labels: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"})
    -> (!tessel.tensor<[], f32> {tessel.name = "loss"},
        !tessel.tensor<[], f32> {tessel.name = "correct"}) {
  %k1 = tessel.parameter "conv1_w" normal scale 0.33 seed 1
      : !tessel.tensor<[c:1, f1:8, kh:3, kw:3], f32>
  %b1 = tessel.parameter "conv1_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f1:8], f32>
  %k2 = tessel.parameter "conv2_w" normal scale 0.12 seed 2
      : !tessel.tensor<[f1:8, f2:16, kh:3, kw:3], f32>
  %b2 = tessel.parameter "conv2_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f2:16], f32>
  %wd = tessel.parameter "dense_w" normal scale 0.036 seed 3
      : !tessel.tensor<[f2:16, h2:7, w2:7, classes:10], f32>
  %bd = tessel.parameter "dense_b" zeros scale 1.0 seed 0 : !tessel.tensor<[classes:10], f32>

  // Block 1: conv (same padding), bias, relu, 2x2 max pooling.
  %c1 = tessel.conv2d %x, %k1 {input_channel = "c", output_channel = "f1",
                               spatial = ["h", "w"], kernel = ["kh", "kw"],
                               padding = array<i64: 1, 1, 1, 1>}
      : !images, !tessel.tensor<[c:1, f1:8, kh:3, kw:3], f32> -> !conv1
  %c1b = tessel.add %c1, %b1 : !conv1, !tessel.tensor<[f1:8], f32> -> !conv1
  %r1 = tessel.relu %c1b : !conv1
  %p1 = tessel.pool max %r1 {spatial = ["h", "w"], window = array<i64: 2, 2>,
                             strides = array<i64: 2, 2>} : !conv1 -> !pool1

  // Block 2, on the pooled image under new dimension names.
  %x2 = tessel.rename %p1 : !pool1 -> !block2
  %c2 = tessel.conv2d %x2, %k2 {input_channel = "f1", output_channel = "f2",
                                spatial = ["h2", "w2"], kernel = ["kh", "kw"],
                                padding = array<i64: 1, 1, 1, 1>}
      : !block2, !tessel.tensor<[f1:8, f2:16, kh:3, kw:3], f32> -> !conv2
  %c2b = tessel.add %c2, %b2 : !conv2, !tessel.tensor<[f2:16], f32> -> !conv2
  %r2 = tessel.relu %c2b : !conv2
  %p2 = tessel.pool max %r2 {spatial = ["h2", "w2"], window = array<i64: 2, 2>,
                             strides = array<i64: 2, 2>} : !conv2 -> !pool2

  // Dense layer: contracts channels and both spatial dimensions at once.
  %d = tessel.einsum %p2, %wd
      : (!pool2, !tessel.tensor<[f2:16, h2:7, w2:7, classes:10], f32>) -> !logits
  %logits = tessel.add %d, %bd : !logits, !tessel.tensor<[classes:10], f32> -> !logits

  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !logits, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>

  // An image counts as correct when its label's logit is the largest.
  %best = tessel.reduce max %logits : !logits -> !tessel.tensor<[batch:8], f32>
  %is_best = tessel.compare ge, %logits, %best
      : !logits, !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[batch:8, classes:10], i1>
  %target = tessel.one_hot %labels as "classes" : !tessel.tensor<[batch:8], i32> -> !logits
  %zero = tessel.constant 0.0 : f32 -> !tessel.tensor<[], f32>
  %hits = tessel.select %is_best, %target, %zero
      : !tessel.tensor<[batch:8, classes:10], i1>, !logits, !tessel.tensor<[], f32> -> !logits
  %correct = tessel.reduce sum %hits : !logits -> !tessel.tensor<[], f32>
  return %loss, %correct : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
}
