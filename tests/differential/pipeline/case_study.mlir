// The case study's classifier with 4 fully connected layers of width 16, batch 8.
// Written by examples/papers/case_study_model.py; do not edit.
func.func private @dense_ab(%h: !tessel.tensor<[batch:8, hid_a:16], f32>) -> !tessel.tensor<[batch:8, hid_b:16], f32> {
  %w = tessel.parameter "w" normal scale 0.353553 seed 10 : !tessel.tensor<[hid_a:16, hid_b:16], f32>
  %b = tessel.parameter "b" zeros scale 1.0 seed 0 : !tessel.tensor<[hid_b:16], f32>
  %m = tessel.einsum %h, %w : (!tessel.tensor<[batch:8, hid_a:16], f32>, !tessel.tensor<[hid_a:16, hid_b:16], f32>) -> !tessel.tensor<[batch:8, hid_b:16], f32>
  %a = tessel.add %m, %b : !tessel.tensor<[batch:8, hid_b:16], f32>, !tessel.tensor<[hid_b:16], f32> -> !tessel.tensor<[batch:8, hid_b:16], f32>
  %r = tessel.relu %a : !tessel.tensor<[batch:8, hid_b:16], f32>
  return %r : !tessel.tensor<[batch:8, hid_b:16], f32>
}

func.func private @dense_ba(%h: !tessel.tensor<[batch:8, hid_b:16], f32>) -> !tessel.tensor<[batch:8, hid_a:16], f32> {
  %w = tessel.parameter "w" normal scale 0.353553 seed 10 : !tessel.tensor<[hid_b:16, hid_a:16], f32>
  %b = tessel.parameter "b" zeros scale 1.0 seed 0 : !tessel.tensor<[hid_a:16], f32>
  %m = tessel.einsum %h, %w : (!tessel.tensor<[batch:8, hid_b:16], f32>, !tessel.tensor<[hid_b:16, hid_a:16], f32>) -> !tessel.tensor<[batch:8, hid_a:16], f32>
  %a = tessel.add %m, %b : !tessel.tensor<[batch:8, hid_a:16], f32>, !tessel.tensor<[hid_a:16], f32> -> !tessel.tensor<[batch:8, hid_a:16], f32>
  %r = tessel.relu %a : !tessel.tensor<[batch:8, hid_a:16], f32>
  return %r : !tessel.tensor<[batch:8, hid_a:16], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32> {tessel.name = "images"}, %labels: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"}) -> !tessel.tensor<[], f32> {
  %k1 = tessel.parameter "conv1_w" normal scale 0.33 seed 1 : !tessel.tensor<[c:1, f1:16, kh:3, kw:3], f32>
  %kb1 = tessel.parameter "conv1_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f1:16], f32>
  %k2 = tessel.parameter "conv2_w" normal scale 0.083 seed 2 : !tessel.tensor<[f1:16, f2:32, kh:3, kw:3], f32>
  %kb2 = tessel.parameter "conv2_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f2:32], f32>
  %c1 = tessel.conv2d %x, %k1 {input_channel = "c", output_channel = "f1", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>} : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>, !tessel.tensor<[c:1, f1:16, kh:3, kw:3], f32> -> !tessel.tensor<[batch:8, f1:16, h:28, w:28], f32>
  %c1b = tessel.add %c1, %kb1 : !tessel.tensor<[batch:8, f1:16, h:28, w:28], f32>, !tessel.tensor<[f1:16], f32> -> !tessel.tensor<[batch:8, f1:16, h:28, w:28], f32>
  %r1 = tessel.relu %c1b : !tessel.tensor<[batch:8, f1:16, h:28, w:28], f32>
  %p1 = tessel.pool max %r1 {spatial = ["h", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : !tessel.tensor<[batch:8, f1:16, h:28, w:28], f32> -> !tessel.tensor<[batch:8, f1:16, h:14, w:14], f32>
  %x2 = tessel.rename %p1 : !tessel.tensor<[batch:8, f1:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, f1:16, h2:14, w2:14], f32>
  %c2 = tessel.conv2d %x2, %k2 {input_channel = "f1", output_channel = "f2", spatial = ["h2", "w2"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>} : !tessel.tensor<[batch:8, f1:16, h2:14, w2:14], f32>, !tessel.tensor<[f1:16, f2:32, kh:3, kw:3], f32> -> !tessel.tensor<[batch:8, f2:32, h2:14, w2:14], f32>
  %c2b = tessel.add %c2, %kb2 : !tessel.tensor<[batch:8, f2:32, h2:14, w2:14], f32>, !tessel.tensor<[f2:32], f32> -> !tessel.tensor<[batch:8, f2:32, h2:14, w2:14], f32>
  %r2 = tessel.relu %c2b : !tessel.tensor<[batch:8, f2:32, h2:14, w2:14], f32>
  %p2 = tessel.pool max %r2 {spatial = ["h2", "w2"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : !tessel.tensor<[batch:8, f2:32, h2:14, w2:14], f32> -> !tessel.tensor<[batch:8, f2:32, h2:7, w2:7], f32>
  %wf = tessel.parameter "flatten_w" normal scale 0.025 seed 3 : !tessel.tensor<[f2:32, h2:7, w2:7, hid_a:16], f32>
  %hf = tessel.einsum %p2, %wf : (!tessel.tensor<[batch:8, f2:32, h2:7, w2:7], f32>, !tessel.tensor<[f2:32, h2:7, w2:7, hid_a:16], f32>) -> !tessel.tensor<[batch:8, hid_a:16], f32>
  %h0 = tessel.relu %hf : !tessel.tensor<[batch:8, hid_a:16], f32>
  %h1 = func.call @dense_ab(%h0) {tessel.scope = "fc0"} : (!tessel.tensor<[batch:8, hid_a:16], f32>) -> !tessel.tensor<[batch:8, hid_b:16], f32>
  %h2 = func.call @dense_ba(%h1) {tessel.scope = "fc1"} : (!tessel.tensor<[batch:8, hid_b:16], f32>) -> !tessel.tensor<[batch:8, hid_a:16], f32>
  %h3 = func.call @dense_ab(%h2) {tessel.scope = "fc2"} : (!tessel.tensor<[batch:8, hid_a:16], f32>) -> !tessel.tensor<[batch:8, hid_b:16], f32>
  %h4 = func.call @dense_ba(%h3) {tessel.scope = "fc3"} : (!tessel.tensor<[batch:8, hid_b:16], f32>) -> !tessel.tensor<[batch:8, hid_a:16], f32>
  %wo = tessel.parameter "out_w" normal scale 0.250000 seed 4 : !tessel.tensor<[hid_a:16, classes:10], f32>
  %bo = tessel.parameter "out_b" zeros scale 1.0 seed 0 : !tessel.tensor<[classes:10], f32>
  %lo = tessel.einsum %h4, %wo : (!tessel.tensor<[batch:8, hid_a:16], f32>, !tessel.tensor<[hid_a:16, classes:10], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
  %logits = tessel.add %lo, %bo : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[classes:10], f32> -> !tessel.tensor<[batch:8, classes:10], f32>
  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes" : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}

func.func @evaluate(%x: !tessel.tensor<[batch:8, c:1, h:28, w:28], f32> {tessel.name = "images"}, %labels: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"}) -> (!tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "correct"}) {
  %k1 = tessel.parameter "conv1_w" normal scale 0.33 seed 1 : !tessel.tensor<[c:1, f1:16, kh:3, kw:3], f32>
  %kb1 = tessel.parameter "conv1_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f1:16], f32>
  %k2 = tessel.parameter "conv2_w" normal scale 0.083 seed 2 : !tessel.tensor<[f1:16, f2:32, kh:3, kw:3], f32>
  %kb2 = tessel.parameter "conv2_b" zeros scale 1.0 seed 0 : !tessel.tensor<[f2:32], f32>
  %c1 = tessel.conv2d %x, %k1 {input_channel = "c", output_channel = "f1", spatial = ["h", "w"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>} : !tessel.tensor<[batch:8, c:1, h:28, w:28], f32>, !tessel.tensor<[c:1, f1:16, kh:3, kw:3], f32> -> !tessel.tensor<[batch:8, f1:16, h:28, w:28], f32>
  %c1b = tessel.add %c1, %kb1 : !tessel.tensor<[batch:8, f1:16, h:28, w:28], f32>, !tessel.tensor<[f1:16], f32> -> !tessel.tensor<[batch:8, f1:16, h:28, w:28], f32>
  %r1 = tessel.relu %c1b : !tessel.tensor<[batch:8, f1:16, h:28, w:28], f32>
  %p1 = tessel.pool max %r1 {spatial = ["h", "w"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : !tessel.tensor<[batch:8, f1:16, h:28, w:28], f32> -> !tessel.tensor<[batch:8, f1:16, h:14, w:14], f32>
  %x2 = tessel.rename %p1 : !tessel.tensor<[batch:8, f1:16, h:14, w:14], f32> -> !tessel.tensor<[batch:8, f1:16, h2:14, w2:14], f32>
  %c2 = tessel.conv2d %x2, %k2 {input_channel = "f1", output_channel = "f2", spatial = ["h2", "w2"], kernel = ["kh", "kw"], padding = array<i64: 1, 1, 1, 1>} : !tessel.tensor<[batch:8, f1:16, h2:14, w2:14], f32>, !tessel.tensor<[f1:16, f2:32, kh:3, kw:3], f32> -> !tessel.tensor<[batch:8, f2:32, h2:14, w2:14], f32>
  %c2b = tessel.add %c2, %kb2 : !tessel.tensor<[batch:8, f2:32, h2:14, w2:14], f32>, !tessel.tensor<[f2:32], f32> -> !tessel.tensor<[batch:8, f2:32, h2:14, w2:14], f32>
  %r2 = tessel.relu %c2b : !tessel.tensor<[batch:8, f2:32, h2:14, w2:14], f32>
  %p2 = tessel.pool max %r2 {spatial = ["h2", "w2"], window = array<i64: 2, 2>, strides = array<i64: 2, 2>} : !tessel.tensor<[batch:8, f2:32, h2:14, w2:14], f32> -> !tessel.tensor<[batch:8, f2:32, h2:7, w2:7], f32>
  %wf = tessel.parameter "flatten_w" normal scale 0.025 seed 3 : !tessel.tensor<[f2:32, h2:7, w2:7, hid_a:16], f32>
  %hf = tessel.einsum %p2, %wf : (!tessel.tensor<[batch:8, f2:32, h2:7, w2:7], f32>, !tessel.tensor<[f2:32, h2:7, w2:7, hid_a:16], f32>) -> !tessel.tensor<[batch:8, hid_a:16], f32>
  %h0 = tessel.relu %hf : !tessel.tensor<[batch:8, hid_a:16], f32>
  %h1 = func.call @dense_ab(%h0) {tessel.scope = "fc0"} : (!tessel.tensor<[batch:8, hid_a:16], f32>) -> !tessel.tensor<[batch:8, hid_b:16], f32>
  %h2 = func.call @dense_ba(%h1) {tessel.scope = "fc1"} : (!tessel.tensor<[batch:8, hid_b:16], f32>) -> !tessel.tensor<[batch:8, hid_a:16], f32>
  %h3 = func.call @dense_ab(%h2) {tessel.scope = "fc2"} : (!tessel.tensor<[batch:8, hid_a:16], f32>) -> !tessel.tensor<[batch:8, hid_b:16], f32>
  %h4 = func.call @dense_ba(%h3) {tessel.scope = "fc3"} : (!tessel.tensor<[batch:8, hid_b:16], f32>) -> !tessel.tensor<[batch:8, hid_a:16], f32>
  %wo = tessel.parameter "out_w" normal scale 0.250000 seed 4 : !tessel.tensor<[hid_a:16, classes:10], f32>
  %bo = tessel.parameter "out_b" zeros scale 1.0 seed 0 : !tessel.tensor<[classes:10], f32>
  %lo = tessel.einsum %h4, %wo : (!tessel.tensor<[batch:8, hid_a:16], f32>, !tessel.tensor<[hid_a:16, classes:10], f32>) -> !tessel.tensor<[batch:8, classes:10], f32>
  %logits = tessel.add %lo, %bo : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[classes:10], f32> -> !tessel.tensor<[batch:8, classes:10], f32>
  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes" : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %losses : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
  %best = tessel.reduce max %logits : !tessel.tensor<[batch:8, classes:10], f32> -> !tessel.tensor<[batch:8], f32>
  %is_best = tessel.compare ge, %logits, %best : !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[batch:8, classes:10], i1>
  %target = tessel.one_hot %labels as "classes" : !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8, classes:10], f32>
  %zero = tessel.constant 0.0 : f32 -> !tessel.tensor<[], f32>
  %hits = tessel.select %is_best, %target, %zero : !tessel.tensor<[batch:8, classes:10], i1>, !tessel.tensor<[batch:8, classes:10], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, classes:10], f32>
  %correct = tessel.reduce sum %hits : !tessel.tensor<[batch:8, classes:10], f32> -> !tessel.tensor<[], f32>
  return %loss, %correct : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
}
