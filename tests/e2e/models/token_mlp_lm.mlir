// A language model whose layers work per token: each block flattens
// [batch, seq] into one `tokens` dimension for its projections (the usual
// flatten before a matmul) and splits it back after, and the loss is taken
// over the flattened logits and targets. `tokens` holds the batch merged
// with `seq`, so --batch and micro-batches resize it with the batch
// (docs/pipeline.md, "Dimensions that hold the batch"); two blocks, one
// for each stage of a 2-stage pipeline (tests/e2e/train_pipeline.sh).

!ids = !tessel.tensor<[batch:8, seq:8], i32>
!flat_ids = !tessel.tensor<[tokens:64], i32>
!act = !tessel.tensor<[batch:8, seq:8, d:16], f32>
!flat = !tessel.tensor<[tokens:64, d:16], f32>
!hidden = !tessel.tensor<[tokens:64, hidden:32], f32>
!logits = !tessel.tensor<[tokens:64, vocab:256], f32>
!losses = !tessel.tensor<[tokens:64], f32>
!scalar = !tessel.tensor<[], f32>

func.func private @embed(%ids: !ids) -> !act {
  %table = tessel.parameter "table" normal scale 0.02 seed 1 : !tessel.tensor<[vocab:256, d:16], f32>
  %x = tessel.gather %table[%ids] over "vocab" : !tessel.tensor<[vocab:256, d:16], f32>, !ids -> !act
  return %x : !act
}

func.func private @block(%x: !act) -> !act {
  %up = tessel.parameter "up" normal scale 0.2 seed 2 : !tessel.tensor<[d:16, hidden:32], f32>
  %down = tessel.parameter "down" normal scale 0.2 seed 3 : !tessel.tensor<[hidden:32, d:16], f32>
  %t = tessel.reshape %x : !act -> !flat
  %h = tessel.einsum %t, %up : (!flat, !tessel.tensor<[d:16, hidden:32], f32>) -> !hidden
  %r = tessel.relu %h : !hidden
  %o = tessel.einsum %r, %down : (!hidden, !tessel.tensor<[hidden:32, d:16], f32>) -> !flat
  %back = tessel.reshape %o : !flat -> !act
  %y = tessel.add %x, %back : !act, !act -> !act
  return %y : !act
}

func.func private @head(%x: !act) -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32> {
  %w = tessel.parameter "w" normal scale 0.2 seed 4 : !tessel.tensor<[d:16, vocab:256], f32>
  %l = tessel.einsum %x, %w : (!act, !tessel.tensor<[d:16, vocab:256], f32>) -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
  return %l : !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
}

func.func @forward(%ids: !ids {tessel.name = "tokens"},
                   %targets: !ids {tessel.name = "targets"}) -> !scalar {
  %x = call @embed(%ids) {tessel.scope = "embed"} : (!ids) -> !act
  %h0 = call @block(%x) {tessel.scope = "block0"} : (!act) -> !act
  %h1 = call @block(%h0) {tessel.scope = "block1"} : (!act) -> !act
  %l = call @head(%h1) {tessel.scope = "head"} : (!act) -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
  %logits = tessel.reshape %l : !tessel.tensor<[batch:8, seq:8, vocab:256], f32> -> !logits
  %flat_targets = tessel.reshape %targets : !ids -> !flat_ids
  %losses = tessel.softmax_cross_entropy %logits, %flat_targets over "vocab"
      : !logits, !flat_ids -> !losses
  %loss = tessel.reduce mean %losses : !losses -> !scalar
  return %loss : !scalar
}
