// A two-layer perceptron for Fashion-MNIST, written with named dimensions.
// `forward` returns the mean softmax cross-entropy of a batch of images
// against their labels; the layers are `pixels -> hidden -> classes`.
// `evaluate` computes the same network and also counts the images whose
// label has the largest logit, for the test accuracy.
func.func @forward(
    %images: !tessel.tensor<[batch:64, pixels:784], f32> {tessel.name = "images"},
    %labels: !tessel.tensor<[batch:64], i32> {tessel.name = "labels"})
    -> !tessel.tensor<[], f32> {
  %w1 = tessel.parameter "w1" normal scale 0.05 seed 1
      : !tessel.tensor<[pixels:784, hidden:256], f32>
  %b1 = tessel.parameter "b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[hidden:256], f32>
  %w2 = tessel.parameter "w2" normal scale 0.0625 seed 2
      : !tessel.tensor<[hidden:256, classes:10], f32>
  %b2 = tessel.parameter "b2" zeros scale 1.0 seed 0
      : !tessel.tensor<[classes:10], f32>

  %xw = tessel.einsum %images, %w1
      : (!tessel.tensor<[batch:64, pixels:784], f32>,
         !tessel.tensor<[pixels:784, hidden:256], f32>)
      -> !tessel.tensor<[batch:64, hidden:256], f32>
  %pre = tessel.add %xw, %b1
      : !tessel.tensor<[batch:64, hidden:256], f32>, !tessel.tensor<[hidden:256], f32>
      -> !tessel.tensor<[batch:64, hidden:256], f32>
  %h = tessel.relu %pre : !tessel.tensor<[batch:64, hidden:256], f32>

  %hw = tessel.einsum %h, %w2
      : (!tessel.tensor<[batch:64, hidden:256], f32>,
         !tessel.tensor<[hidden:256, classes:10], f32>)
      -> !tessel.tensor<[batch:64, classes:10], f32>
  %logits = tessel.add %hw, %b2
      : !tessel.tensor<[batch:64, classes:10], f32>, !tessel.tensor<[classes:10], f32>
      -> !tessel.tensor<[batch:64, classes:10], f32>

  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !tessel.tensor<[batch:64, classes:10], f32>, !tessel.tensor<[batch:64], i32>
      -> !tessel.tensor<[batch:64], f32>
  %loss = tessel.reduce mean %losses
      : !tessel.tensor<[batch:64], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}

func.func @evaluate(
    %images: !tessel.tensor<[batch:64, pixels:784], f32> {tessel.name = "images"},
    %labels: !tessel.tensor<[batch:64], i32> {tessel.name = "labels"})
    -> (!tessel.tensor<[], f32> {tessel.name = "loss"},
        !tessel.tensor<[], f32> {tessel.name = "correct"}) {
  %w1 = tessel.parameter "w1" normal scale 0.05 seed 1
      : !tessel.tensor<[pixels:784, hidden:256], f32>
  %b1 = tessel.parameter "b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[hidden:256], f32>
  %w2 = tessel.parameter "w2" normal scale 0.0625 seed 2
      : !tessel.tensor<[hidden:256, classes:10], f32>
  %b2 = tessel.parameter "b2" zeros scale 1.0 seed 0
      : !tessel.tensor<[classes:10], f32>

  %xw = tessel.einsum %images, %w1
      : (!tessel.tensor<[batch:64, pixels:784], f32>,
         !tessel.tensor<[pixels:784, hidden:256], f32>)
      -> !tessel.tensor<[batch:64, hidden:256], f32>
  %pre = tessel.add %xw, %b1
      : !tessel.tensor<[batch:64, hidden:256], f32>, !tessel.tensor<[hidden:256], f32>
      -> !tessel.tensor<[batch:64, hidden:256], f32>
  %h = tessel.relu %pre : !tessel.tensor<[batch:64, hidden:256], f32>

  %hw = tessel.einsum %h, %w2
      : (!tessel.tensor<[batch:64, hidden:256], f32>,
         !tessel.tensor<[hidden:256, classes:10], f32>)
      -> !tessel.tensor<[batch:64, classes:10], f32>
  %logits = tessel.add %hw, %b2
      : !tessel.tensor<[batch:64, classes:10], f32>, !tessel.tensor<[classes:10], f32>
      -> !tessel.tensor<[batch:64, classes:10], f32>

  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !tessel.tensor<[batch:64, classes:10], f32>, !tessel.tensor<[batch:64], i32>
      -> !tessel.tensor<[batch:64], f32>
  %loss = tessel.reduce mean %losses
      : !tessel.tensor<[batch:64], f32> -> !tessel.tensor<[], f32>

  // An image counts as correct when its label's logit is the largest.
  %best = tessel.reduce max %logits
      : !tessel.tensor<[batch:64, classes:10], f32> -> !tessel.tensor<[batch:64], f32>
  %is_best = tessel.compare ge, %logits, %best
      : !tessel.tensor<[batch:64, classes:10], f32>, !tessel.tensor<[batch:64], f32>
      -> !tessel.tensor<[batch:64, classes:10], i1>
  %target = tessel.one_hot %labels as "classes"
      : !tessel.tensor<[batch:64], i32> -> !tessel.tensor<[batch:64, classes:10], f32>
  %zero = tessel.constant 0.0 : f32 -> !tessel.tensor<[], f32>
  %hits = tessel.select %is_best, %target, %zero
      : !tessel.tensor<[batch:64, classes:10], i1>, !tessel.tensor<[batch:64, classes:10], f32>,
        !tessel.tensor<[], f32> -> !tessel.tensor<[batch:64, classes:10], f32>
  %correct = tessel.reduce sum %hits
      : !tessel.tensor<[batch:64, classes:10], f32> -> !tessel.tensor<[], f32>
  return %loss, %correct : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
}

// `predict` returns the logits and the predicted class of each image, which
// a forward-only program (tessel compile --mode infer) writes as logits.npy
// and classes.npy.
func.func @predict(
    %images: !tessel.tensor<[batch:64, pixels:784], f32> {tessel.name = "images"})
    -> (!tessel.tensor<[batch:64, classes:10], f32> {tessel.name = "logits"},
        !tessel.tensor<[batch:64], i32> {tessel.name = "classes"}) {
  %w1 = tessel.parameter "w1" normal scale 0.05 seed 1
      : !tessel.tensor<[pixels:784, hidden:256], f32>
  %b1 = tessel.parameter "b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[hidden:256], f32>
  %w2 = tessel.parameter "w2" normal scale 0.0625 seed 2
      : !tessel.tensor<[hidden:256, classes:10], f32>
  %b2 = tessel.parameter "b2" zeros scale 1.0 seed 0
      : !tessel.tensor<[classes:10], f32>

  %xw = tessel.einsum %images, %w1
      : (!tessel.tensor<[batch:64, pixels:784], f32>,
         !tessel.tensor<[pixels:784, hidden:256], f32>)
      -> !tessel.tensor<[batch:64, hidden:256], f32>
  %pre = tessel.add %xw, %b1
      : !tessel.tensor<[batch:64, hidden:256], f32>, !tessel.tensor<[hidden:256], f32>
      -> !tessel.tensor<[batch:64, hidden:256], f32>
  %h = tessel.relu %pre : !tessel.tensor<[batch:64, hidden:256], f32>

  %hw = tessel.einsum %h, %w2
      : (!tessel.tensor<[batch:64, hidden:256], f32>,
         !tessel.tensor<[hidden:256, classes:10], f32>)
      -> !tessel.tensor<[batch:64, classes:10], f32>
  %logits = tessel.add %hw, %b2
      : !tessel.tensor<[batch:64, classes:10], f32>, !tessel.tensor<[classes:10], f32>
      -> !tessel.tensor<[batch:64, classes:10], f32>
  %classes = tessel.argmax %logits over "classes"
      : !tessel.tensor<[batch:64, classes:10], f32> -> !tessel.tensor<[batch:64], i32>
  return %logits, %classes
      : !tessel.tensor<[batch:64, classes:10], f32>, !tessel.tensor<[batch:64], i32>
}
