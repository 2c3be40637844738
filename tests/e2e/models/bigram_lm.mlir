// A bigram language model for the driver's tests of language-model
// evaluation: the logits of the next byte are the row of a learned table
// that the current byte picks. `forward` returns the mean next-byte
// cross-entropy; `evaluate` returns it with the number of positions whose
// target byte has the largest logit (batch 4 x seq 8 = 32 predictions per
// batch).

!tokens = !tessel.tensor<[batch:4, seq:8], i32>
!table = !tessel.tensor<[prev:256, vocab:256], f32>
!logits = !tessel.tensor<[batch:4, seq:8, vocab:256], f32>
!positions = !tessel.tensor<[batch:4, seq:8], f32>
!scalar = !tessel.tensor<[], f32>

func.func @forward(%tokens: !tokens {tessel.name = "tokens"},
                   %targets: !tokens {tessel.name = "targets"}) -> !scalar {
  %table = tessel.parameter "table" normal scale 0.02 seed 1 : !table
  %logits = tessel.gather %table[%tokens] over "prev" : !table, !tokens -> !logits
  %losses = tessel.softmax_cross_entropy %logits, %targets over "vocab"
      : !logits, !tokens -> !positions
  %loss = tessel.reduce mean %losses : !positions -> !scalar
  return %loss : !scalar
}

func.func @evaluate(%tokens: !tokens {tessel.name = "tokens"},
                    %targets: !tokens {tessel.name = "targets"})
    -> (!scalar {tessel.name = "loss"}, !scalar {tessel.name = "correct"}) {
  %table = tessel.parameter "table" normal scale 0.02 seed 1 : !table
  %logits = tessel.gather %table[%tokens] over "prev" : !table, !tokens -> !logits
  %losses = tessel.softmax_cross_entropy %logits, %targets over "vocab"
      : !logits, !tokens -> !positions
  %loss = tessel.reduce mean %losses : !positions -> !scalar
  // A position counts as correct when its target's logit is the largest.
  %best = tessel.reduce max %logits : !logits -> !positions
  %is_best = tessel.compare ge, %logits, %best : !logits, !positions
      -> !tessel.tensor<[batch:4, seq:8, vocab:256], i1>
  %target = tessel.one_hot %targets as "vocab" : !tokens -> !logits
  %zero = tessel.constant 0.0 : f32 -> !scalar
  %hits = tessel.select %is_best, %target, %zero
      : !tessel.tensor<[batch:4, seq:8, vocab:256], i1>, !logits, !scalar -> !logits
  %correct = tessel.reduce sum %hits : !logits -> !scalar
  return %loss, %correct : !scalar, !scalar
}
