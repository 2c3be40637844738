// top_k on the way from the data to a scalar loss, for the differential
// sweep: a top-2 gate routes each example to two of eight experts (the
// softmax probabilities of the two, renormalised, weight the experts'
// outputs through one_hot of their indices), and the three examples with
// the largest routed output count again (a top-k along the batch). Under
// the sweep's layouts the batch and the experts are split, so each top_k
// runs along a split dimension (each block's top k, gathered, the top k of
// those) beside the other kept split; the training step runs the values'
// gradients (one_hot of the indices contracted with dy).
func.func @forward(
    %x: !tessel.tensor<[batch:8, feat:4], f32> {tessel.name = "x"})
    -> !tessel.tensor<[], f32> {
  %router = tessel.parameter "router" normal scale 1.0 seed 1
      : !tessel.tensor<[feat:4, experts:8], f32>
  %w = tessel.parameter "w" normal scale 0.5 seed 2
      : !tessel.tensor<[experts:8, feat:4, hidden:6], f32>

  %logits = tessel.einsum %x, %router
      : (!tessel.tensor<[batch:8, feat:4], f32>, !tessel.tensor<[feat:4, experts:8], f32>)
      -> !tessel.tensor<[batch:8, experts:8], f32>
  %probs = tessel.softmax %logits over "experts" : !tessel.tensor<[batch:8, experts:8], f32>

  // The top-2 gate: the two largest probabilities, renormalised, and the
  // experts they belong to.
  %gates = tessel.top_k %probs over "experts" k 2 as "choice"
      : !tessel.tensor<[batch:8, experts:8], f32> -> !tessel.tensor<[batch:8, choice:2], f32>
  %chosen = tessel.top_k %probs over "experts" k 2 as "choice" indices
      : !tessel.tensor<[batch:8, experts:8], f32> -> !tessel.tensor<[batch:8, choice:2], i32>
  %total = tessel.reduce sum %gates
      : !tessel.tensor<[batch:8, choice:2], f32> -> !tessel.tensor<[batch:8], f32>
  %norm = tessel.div %gates, %total
      : !tessel.tensor<[batch:8, choice:2], f32>, !tessel.tensor<[batch:8], f32>
      -> !tessel.tensor<[batch:8, choice:2], f32>
  %onehot = tessel.one_hot %chosen as "experts"
      : !tessel.tensor<[batch:8, choice:2], i32>
      -> !tessel.tensor<[batch:8, choice:2, experts:8], f32>
  %combine = tessel.einsum %norm, %onehot
      : (!tessel.tensor<[batch:8, choice:2], f32>,
         !tessel.tensor<[batch:8, choice:2, experts:8], f32>)
      -> !tessel.tensor<[batch:8, experts:8], f32>

  // Every expert's output, weighted by the gate (zero for the others).
  %out = tessel.einsum %x, %w, %combine
      : (!tessel.tensor<[batch:8, feat:4], f32>,
         !tessel.tensor<[experts:8, feat:4, hidden:6], f32>,
         !tessel.tensor<[batch:8, experts:8], f32>)
      -> !tessel.tensor<[batch:8, hidden:6], f32>
  %act = tessel.tanh %out : !tessel.tensor<[batch:8, hidden:6], f32>
  %sq = tessel.mul %act, %act
      : !tessel.tensor<[batch:8, hidden:6], f32>, !tessel.tensor<[batch:8, hidden:6], f32>
      -> !tessel.tensor<[batch:8, hidden:6], f32>
  %energy = tessel.reduce sum %sq
      : !tessel.tensor<[batch:8, hidden:6], f32> -> !tessel.tensor<[batch:8], f32>
  %mean = tessel.reduce mean %energy : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[], f32>

  // The three examples with the most energy count again.
  %hardest = tessel.top_k %energy over "batch" k 3 as "hard"
      : !tessel.tensor<[batch:8], f32> -> !tessel.tensor<[hard:3], f32>
  %extra = tessel.reduce mean %hardest : !tessel.tensor<[hard:3], f32> -> !tessel.tensor<[], f32>
  %loss = tessel.add %mean, %extra
      : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
  return %loss : !tessel.tensor<[], f32>
}
