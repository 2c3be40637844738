// The 4-layer CNN of the Phylanx paper's forward-pass scaling experiment
// (two 1-D convolutions, max pooling, two dense layers), for the Human
// Activity Recognition data's windows: 9 sensor channels over 128 time
// steps, 6 activities. Time runs along `t` with a unit dimension `u`, since
// tessel's convolution is 2-D. `evaluate` is the forward pass the
// experiment times; `forward` is the loss training needs.

func.func @forward(%x: !tessel.tensor<[batch:32, c:9, t:128, u:1], f32> {tessel.name = "signals"},
    %labels: !tessel.tensor<[batch:32], i32> {tessel.name = "labels"})
    -> !tessel.tensor<[], f32> {
  %k1 = tessel.parameter "conv1_w" normal scale 0.19 seed 1 : !tessel.tensor<[c:9, f1:64, kt:3, ku:1], f32>
  %b1 = tessel.parameter "conv1_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f1:64], f32>
  %k2 = tessel.parameter "conv2_w" normal scale 0.072 seed 2 : !tessel.tensor<[f1:64, f2:64, kt:3, ku:1], f32>
  %b2 = tessel.parameter "conv2_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f2:64], f32>
  %wd = tessel.parameter "dense_w" normal scale 0.022 seed 3 : !tessel.tensor<[f2:64, t2:62, u2:1, hidden:100], f32>
  %bd = tessel.parameter "dense_b" zeros scale 1.0 seed 0 : !tessel.tensor<[hidden:100], f32>
  %wo = tessel.parameter "out_w" normal scale 0.1 seed 4 : !tessel.tensor<[hidden:100, classes:6], f32>
  %bo = tessel.parameter "out_b" zeros scale 1.0 seed 0 : !tessel.tensor<[classes:6], f32>

  // Layer 1: 1-D convolution over time, 9 -> 64 channels, kernel 3.
  %c1 = tessel.conv2d %x, %k1 {input_channel = "c", output_channel = "f1",
                               spatial = ["t", "u"], kernel = ["kt", "ku"]}
      : !tessel.tensor<[batch:32, c:9, t:128, u:1], f32>, !tessel.tensor<[c:9, f1:64, kt:3, ku:1], f32> -> !tessel.tensor<[batch:32, f1:64, t:126, u:1], f32>
  %c1b = tessel.add %c1, %b1 : !tessel.tensor<[batch:32, f1:64, t:126, u:1], f32>, !tessel.tensor<[f1:64], f32> -> !tessel.tensor<[batch:32, f1:64, t:126, u:1], f32>
  %r1 = tessel.relu %c1b : !tessel.tensor<[batch:32, f1:64, t:126, u:1], f32>
  // Layer 2: 64 -> 64 channels, kernel 3, then max pooling by 2.
  %x2 = tessel.rename %r1 : !tessel.tensor<[batch:32, f1:64, t:126, u:1], f32> -> !tessel.tensor<[batch:32, f1:64, t2:126, u2:1], f32>
  %c2 = tessel.conv2d %x2, %k2 {input_channel = "f1", output_channel = "f2",
                                spatial = ["t2", "u2"], kernel = ["kt", "ku"]}
      : !tessel.tensor<[batch:32, f1:64, t2:126, u2:1], f32>, !tessel.tensor<[f1:64, f2:64, kt:3, ku:1], f32> -> !tessel.tensor<[batch:32, f2:64, t2:124, u2:1], f32>
  %c2b = tessel.add %c2, %b2 : !tessel.tensor<[batch:32, f2:64, t2:124, u2:1], f32>, !tessel.tensor<[f2:64], f32> -> !tessel.tensor<[batch:32, f2:64, t2:124, u2:1], f32>
  %r2 = tessel.relu %c2b : !tessel.tensor<[batch:32, f2:64, t2:124, u2:1], f32>
  %p2 = tessel.pool max %r2 {spatial = ["t2", "u2"], window = array<i64: 2, 1>,
                             strides = array<i64: 2, 1>} : !tessel.tensor<[batch:32, f2:64, t2:124, u2:1], f32> -> !tessel.tensor<[batch:32, f2:64, t2:62, u2:1], f32>
  // Layer 3: dense 3968 -> 100; layer 4: dense 100 -> 6 classes.
  %d = tessel.einsum %p2, %wd : (!tessel.tensor<[batch:32, f2:64, t2:62, u2:1], f32>, !tessel.tensor<[f2:64, t2:62, u2:1, hidden:100], f32>) -> !tessel.tensor<[batch:32, hidden:100], f32>
  %db = tessel.add %d, %bd : !tessel.tensor<[batch:32, hidden:100], f32>, !tessel.tensor<[hidden:100], f32> -> !tessel.tensor<[batch:32, hidden:100], f32>
  %hr = tessel.relu %db : !tessel.tensor<[batch:32, hidden:100], f32>
  %o = tessel.einsum %hr, %wo : (!tessel.tensor<[batch:32, hidden:100], f32>, !tessel.tensor<[hidden:100, classes:6], f32>) -> !tessel.tensor<[batch:32, classes:6], f32>
  %logits = tessel.add %o, %bo : !tessel.tensor<[batch:32, classes:6], f32>, !tessel.tensor<[classes:6], f32> -> !tessel.tensor<[batch:32, classes:6], f32>
  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !tessel.tensor<[batch:32, classes:6], f32>, !tessel.tensor<[batch:32], i32> -> !tessel.tensor<[batch:32], f32>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:32], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}

func.func @evaluate(%x: !tessel.tensor<[batch:32, c:9, t:128, u:1], f32> {tessel.name = "signals"},
    %labels: !tessel.tensor<[batch:32], i32> {tessel.name = "labels"})
    -> (!tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "correct"}) {
  %k1 = tessel.parameter "conv1_w" normal scale 0.19 seed 1 : !tessel.tensor<[c:9, f1:64, kt:3, ku:1], f32>
  %b1 = tessel.parameter "conv1_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f1:64], f32>
  %k2 = tessel.parameter "conv2_w" normal scale 0.072 seed 2 : !tessel.tensor<[f1:64, f2:64, kt:3, ku:1], f32>
  %b2 = tessel.parameter "conv2_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f2:64], f32>
  %wd = tessel.parameter "dense_w" normal scale 0.022 seed 3 : !tessel.tensor<[f2:64, t2:62, u2:1, hidden:100], f32>
  %bd = tessel.parameter "dense_b" zeros scale 1.0 seed 0 : !tessel.tensor<[hidden:100], f32>
  %wo = tessel.parameter "out_w" normal scale 0.1 seed 4 : !tessel.tensor<[hidden:100, classes:6], f32>
  %bo = tessel.parameter "out_b" zeros scale 1.0 seed 0 : !tessel.tensor<[classes:6], f32>

  // Layer 1: 1-D convolution over time, 9 -> 64 channels, kernel 3.
  %c1 = tessel.conv2d %x, %k1 {input_channel = "c", output_channel = "f1",
                               spatial = ["t", "u"], kernel = ["kt", "ku"]}
      : !tessel.tensor<[batch:32, c:9, t:128, u:1], f32>, !tessel.tensor<[c:9, f1:64, kt:3, ku:1], f32> -> !tessel.tensor<[batch:32, f1:64, t:126, u:1], f32>
  %c1b = tessel.add %c1, %b1 : !tessel.tensor<[batch:32, f1:64, t:126, u:1], f32>, !tessel.tensor<[f1:64], f32> -> !tessel.tensor<[batch:32, f1:64, t:126, u:1], f32>
  %r1 = tessel.relu %c1b : !tessel.tensor<[batch:32, f1:64, t:126, u:1], f32>
  // Layer 2: 64 -> 64 channels, kernel 3, then max pooling by 2.
  %x2 = tessel.rename %r1 : !tessel.tensor<[batch:32, f1:64, t:126, u:1], f32> -> !tessel.tensor<[batch:32, f1:64, t2:126, u2:1], f32>
  %c2 = tessel.conv2d %x2, %k2 {input_channel = "f1", output_channel = "f2",
                                spatial = ["t2", "u2"], kernel = ["kt", "ku"]}
      : !tessel.tensor<[batch:32, f1:64, t2:126, u2:1], f32>, !tessel.tensor<[f1:64, f2:64, kt:3, ku:1], f32> -> !tessel.tensor<[batch:32, f2:64, t2:124, u2:1], f32>
  %c2b = tessel.add %c2, %b2 : !tessel.tensor<[batch:32, f2:64, t2:124, u2:1], f32>, !tessel.tensor<[f2:64], f32> -> !tessel.tensor<[batch:32, f2:64, t2:124, u2:1], f32>
  %r2 = tessel.relu %c2b : !tessel.tensor<[batch:32, f2:64, t2:124, u2:1], f32>
  %p2 = tessel.pool max %r2 {spatial = ["t2", "u2"], window = array<i64: 2, 1>,
                             strides = array<i64: 2, 1>} : !tessel.tensor<[batch:32, f2:64, t2:124, u2:1], f32> -> !tessel.tensor<[batch:32, f2:64, t2:62, u2:1], f32>
  // Layer 3: dense 3968 -> 100; layer 4: dense 100 -> 6 classes.
  %d = tessel.einsum %p2, %wd : (!tessel.tensor<[batch:32, f2:64, t2:62, u2:1], f32>, !tessel.tensor<[f2:64, t2:62, u2:1, hidden:100], f32>) -> !tessel.tensor<[batch:32, hidden:100], f32>
  %db = tessel.add %d, %bd : !tessel.tensor<[batch:32, hidden:100], f32>, !tessel.tensor<[hidden:100], f32> -> !tessel.tensor<[batch:32, hidden:100], f32>
  %hr = tessel.relu %db : !tessel.tensor<[batch:32, hidden:100], f32>
  %o = tessel.einsum %hr, %wo : (!tessel.tensor<[batch:32, hidden:100], f32>, !tessel.tensor<[hidden:100, classes:6], f32>) -> !tessel.tensor<[batch:32, classes:6], f32>
  %logits = tessel.add %o, %bo : !tessel.tensor<[batch:32, classes:6], f32>, !tessel.tensor<[classes:6], f32> -> !tessel.tensor<[batch:32, classes:6], f32>
  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !tessel.tensor<[batch:32, classes:6], f32>, !tessel.tensor<[batch:32], i32> -> !tessel.tensor<[batch:32], f32>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:32], f32> -> !tessel.tensor<[], f32>
  %best = tessel.reduce max %logits : !tessel.tensor<[batch:32, classes:6], f32> -> !tessel.tensor<[batch:32], f32>
  %is_best = tessel.compare ge, %logits, %best : !tessel.tensor<[batch:32, classes:6], f32>, !tessel.tensor<[batch:32], f32> -> !tessel.tensor<[batch:32, classes:6], i1>
  %target = tessel.one_hot %labels as "classes" : !tessel.tensor<[batch:32], i32> -> !tessel.tensor<[batch:32, classes:6], f32>
  %zero = tessel.constant 0.0 : f32 -> !tessel.tensor<[], f32>
  %hits = tessel.select %is_best, %target, %zero : !tessel.tensor<[batch:32, classes:6], i1>, !tessel.tensor<[batch:32, classes:6], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:32, classes:6], f32>
  %correct = tessel.reduce sum %hits : !tessel.tensor<[batch:32, classes:6], f32> -> !tessel.tensor<[], f32>
  return %loss, %correct : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
}
