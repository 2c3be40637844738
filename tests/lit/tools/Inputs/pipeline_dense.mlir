// Four layers of one dense function, a bias read before the first and
// after the last (a weight two stages hold) and a classifier: the model of
// explain_pipeline.test, small enough to count by hand.

func.func private @dense(%x: !tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32> {
  %w = tessel.parameter "w" normal scale 0.5 seed 1 : !tessel.tensor<[d:3, e:3], f32>
  %h = tessel.einsum %x, %w : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3, e:3], f32>) -> !tessel.tensor<[batch:8, e:3], f32>
  %r = tessel.rename %h : !tessel.tensor<[batch:8, e:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %t = tessel.tanh %r : !tessel.tensor<[batch:8, d:3], f32>
  return %t : !tessel.tensor<[batch:8, d:3], f32>
}

func.func @forward(%x: !tessel.tensor<[batch:8, d:3], f32> {tessel.name = "x"},
                   %labels: !tessel.tensor<[batch:8], i32> {tessel.name = "labels"}) -> !tessel.tensor<[], f32> {
  %emb = tessel.parameter "emb" normal scale 0.5 seed 7 : !tessel.tensor<[d:3, classes:5], f32>
  %bias = tessel.parameter "bias" normal scale 0.5 seed 8 : !tessel.tensor<[d:3], f32>
  %xb = tessel.add %x, %bias : !tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %h0 = func.call @dense(%xb) {tessel.scope = "layer0"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h1 = func.call @dense(%h0) {tessel.scope = "layer1"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h2 = func.call @dense(%h1) {tessel.scope = "layer2"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h3 = func.call @dense(%h2) {tessel.scope = "layer3"} : (!tessel.tensor<[batch:8, d:3], f32>) -> !tessel.tensor<[batch:8, d:3], f32>
  %h3b = tessel.add %h3, %bias : !tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3], f32> -> !tessel.tensor<[batch:8, d:3], f32>
  %logits = tessel.einsum %h3b, %emb : (!tessel.tensor<[batch:8, d:3], f32>, !tessel.tensor<[d:3, classes:5], f32>) -> !tessel.tensor<[batch:8, classes:5], f32>
  %ce = tessel.softmax_cross_entropy %logits, %labels over "classes" : !tessel.tensor<[batch:8, classes:5], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  %loss = tessel.reduce mean %ce : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}

