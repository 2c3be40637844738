// The benchmark's perceptron: 784 -> 1024 -> 1024 -> 10 with ReLU, batch
// 256, the mean softmax cross-entropy of Fashion-MNIST images against their
// labels. Larger than examples/mlp so that a step is dominated by its GEMMs
// (about 2.9 GFLOP per training step), the size the PyTorch peer
// benchmarks/peers/mlp.py trains too.

!images = !tessel.tensor<[batch:256, pixels:784], f32>
!hidden1 = !tessel.tensor<[batch:256, hidden1:1024], f32>
!hidden2 = !tessel.tensor<[batch:256, hidden2:1024], f32>
!logits = !tessel.tensor<[batch:256, classes:10], f32>
!labels = !tessel.tensor<[batch:256], i32>

func.func @forward(%images: !images {tessel.name = "images"},
                   %labels: !labels {tessel.name = "labels"})
    -> !tessel.tensor<[], f32> {
  %w1 = tessel.parameter "w1" normal scale 0.05 seed 1
      : !tessel.tensor<[pixels:784, hidden1:1024], f32>
  %b1 = tessel.parameter "b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[hidden1:1024], f32>
  %w2 = tessel.parameter "w2" normal scale 0.03 seed 2
      : !tessel.tensor<[hidden1:1024, hidden2:1024], f32>
  %b2 = tessel.parameter "b2" zeros scale 1.0 seed 0
      : !tessel.tensor<[hidden2:1024], f32>
  %w3 = tessel.parameter "w3" normal scale 0.03 seed 3
      : !tessel.tensor<[hidden2:1024, classes:10], f32>
  %b3 = tessel.parameter "b3" zeros scale 1.0 seed 0
      : !tessel.tensor<[classes:10], f32>

  %xw1 = tessel.einsum %images, %w1
      : (!images, !tessel.tensor<[pixels:784, hidden1:1024], f32>) -> !hidden1
  %pre1 = tessel.add %xw1, %b1 : !hidden1, !tessel.tensor<[hidden1:1024], f32> -> !hidden1
  %h1 = tessel.relu %pre1 : !hidden1

  %xw2 = tessel.einsum %h1, %w2
      : (!hidden1, !tessel.tensor<[hidden1:1024, hidden2:1024], f32>) -> !hidden2
  %pre2 = tessel.add %xw2, %b2 : !hidden2, !tessel.tensor<[hidden2:1024], f32> -> !hidden2
  %h2 = tessel.relu %pre2 : !hidden2

  %xw3 = tessel.einsum %h2, %w3
      : (!hidden2, !tessel.tensor<[hidden2:1024, classes:10], f32>) -> !logits
  %logits = tessel.add %xw3, %b3 : !logits, !tessel.tensor<[classes:10], f32> -> !logits

  %losses = tessel.softmax_cross_entropy %logits, %labels over "classes"
      : !logits, !labels -> !tessel.tensor<[batch:256], f32>
  %loss = tessel.reduce mean %losses
      : !tessel.tensor<[batch:256], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
