// Cross-entropy over classes split on `model` never gathers the logits:
// a max and a sum of exponentials travel, and each rank picks the label's
// logit from its own classes by comparing labels with their global indices.
func.func @split_classes(%logits: !tessel.tensor<[batch:8, k:8], f32>,
                         %labels: !tessel.tensor<[batch:8], i32>) -> !tessel.tensor<[batch:8], f32> {
  %l = tessel.softmax_cross_entropy %logits, %labels over "k"
      : !tessel.tensor<[batch:8, k:8], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8], f32>
  return %l : !tessel.tensor<[batch:8], f32>
}
