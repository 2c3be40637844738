// The trivial program whose peak resident memory `tessel calibrate` takes
// for the driver's own (the machine profile's memory.driver_bytes): MPI,
// oneDNN with the kernels a Transformer uses, the executable and the
// driver training on the text corpus, and next to nothing of a step.
// Written by examples/transformer/generate.py --layers 1 --d-model 8
// --heads 1 --d-ff 8 --seq 4 --batch 4, as benchmarks/memory_model.py
// writes its own.
//
// A decoder-only Transformer with one pre-LN block, written with named
// dimensions. `forward` embeds a batch of token sequences, runs causal
// multi-head self-attention and an MLP, projects back onto the vocabulary and
// returns the mean next-token cross-entropy against `targets`.
//
// Sizes: batch 4, seq 4, vocab 256, d_model 8, heads 1 x head_dim 8,
// d_ff 8. With the small initial weights the loss starts near
// ln(256) ~= 5.55.

// Activations, one row of d_model per token.
!act = !tessel.tensor<[batch:4, seq:4, d_model:8], f32>
// Per-head projections of the activations.
!heads = !tessel.tensor<[batch:4, seq:4, heads:1, head_dim:8], f32>
!keys = !tessel.tensor<[batch:4, key:4, heads:1, head_dim:8], f32>
// Attention scores and probabilities: every query `seq` against every `key`.
!scores = !tessel.tensor<[batch:4, heads:1, seq:4, key:4], f32>
!mask = !tessel.tensor<[seq:4, key:4], i1>
!pos = !tessel.tensor<[seq:4, key:4], i32>
!ff = !tessel.tensor<[batch:4, seq:4, d_ff:8], f32>
!logits = !tessel.tensor<[batch:4, seq:4, vocab:256], f32>
!tokens = !tessel.tensor<[batch:4, seq:4], i32>
!tokens_f32 = !tessel.tensor<[batch:4, seq:4], f32>
!vec = !tessel.tensor<[d_model:8], f32>
!scalar = !tessel.tensor<[], f32>

func.func @forward(%tokens: !tokens {tessel.name = "tokens"},
                   %targets: !tokens {tessel.name = "targets"}) -> !scalar {
  //===--------------------------------------------------------------------===//
  // Parameters
  //===--------------------------------------------------------------------===//

  // Token and learned position embeddings.
  %tok_emb = tessel.parameter "tok_emb" normal scale 0.02 seed 1
      : !tessel.tensor<[vocab:256, d_model:8], f32>
  %pos_emb = tessel.parameter "pos_emb" normal scale 0.02 seed 2
      : !tessel.tensor<[seq:4, d_model:8], f32>
  // Attention: query, key, value and output projections.
  %wq = tessel.parameter "attn_wq" normal scale 0.02 seed 3
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk = tessel.parameter "attn_wk" normal scale 0.02 seed 4
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv = tessel.parameter "attn_wv" normal scale 0.02 seed 5
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo = tessel.parameter "attn_wo" normal scale 0.02 seed 6
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP: d_model -> d_ff -> d_model, with biases.
  %w_ff1 = tessel.parameter "mlp_w1" normal scale 0.02 seed 7
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1 = tessel.parameter "mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2 = tessel.parameter "mlp_w2" normal scale 0.02 seed 8
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2 = tessel.parameter "mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms: before attention, before the MLP, and at the end.
  %ln1_g = tessel.parameter "ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b = tessel.parameter "ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g = tessel.parameter "ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b = tessel.parameter "ln2_beta" zeros scale 1.0 seed 0 : !vec
  %lnf_g = tessel.parameter "lnf_gamma" ones scale 1.0 seed 0 : !vec
  %lnf_b = tessel.parameter "lnf_beta" zeros scale 1.0 seed 0 : !vec
  // The unembedding, not tied to the token embedding.
  %w_out = tessel.parameter "unembed" normal scale 0.02 seed 9
      : !tessel.tensor<[d_model:8, vocab:256], f32>

  //===--------------------------------------------------------------------===//
  // Embedding: look up each token's row and add its position's row
  //===--------------------------------------------------------------------===//

  %x_tok = tessel.gather %tok_emb[%tokens] over "vocab"
      : !tessel.tensor<[vocab:256, d_model:8], f32>, !tokens -> !act
  %x0 = tessel.add %x_tok, %pos_emb
      : !act, !tessel.tensor<[seq:4, d_model:8], f32> -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1 = tessel.layer_norm %x0 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g = tessel.mul %n1, %ln1_g : !act, !vec -> !act
  %h1 = tessel.add %n1_g, %ln1_b : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q = tessel.einsum %h1, %wq
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq = tessel.einsum %h1, %wk
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq = tessel.einsum %h1, %wv
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k = tessel.rename %k_seq : !heads -> !keys
  %v = tessel.rename %v_seq : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk = tessel.einsum %q, %k : (!heads, !keys) -> !scores
  %inv_sqrt_d = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled = tessel.mul %qk, %inv_sqrt_d : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos = tessel.iota "seq" : !pos
  %k_pos = tessel.iota "key" : !pos
  %causal = tessel.compare ge, %q_pos, %k_pos : !pos, !pos -> !mask
  %neg_inf = tessel.constant -1.0e9 : f32 -> !scalar
  %masked = tessel.select %causal, %scaled, %neg_inf
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs = tessel.softmax %masked over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn = tessel.einsum %probs, %v : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out = tessel.einsum %attn, %wo
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x1 = tessel.add %x0, %attn_out : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2 = tessel.layer_norm %x1 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g = tessel.mul %n2, %ln2_g : !act, !vec -> !act
  %h2 = tessel.add %n2_g, %ln2_b : !act, !vec -> !act

  %ff1 = tessel.einsum %h2, %w_ff1
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b = tessel.add %ff1, %b_ff1 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act = tessel.gelu %ff1_b : !ff
  %ff2 = tessel.einsum %ff1_act, %w_ff2
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b = tessel.add %ff2, %b_ff2 : !act, !vec -> !act

  // Residual connection.
  %x2 = tessel.add %x1, %ff2_b : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Head: final layer norm, logits over the vocabulary, loss
  //===--------------------------------------------------------------------===//

  %nf = tessel.layer_norm %x2 over ["d_model"] epsilon 1.0e-05 : !act
  %nf_g = tessel.mul %nf, %lnf_g : !act, !vec -> !act
  %hf = tessel.add %nf_g, %lnf_b : !act, !vec -> !act

  %logits = tessel.einsum %hf, %w_out {tessel.name = "logits"}
      : (!act, !tessel.tensor<[d_model:8, vocab:256], f32>) -> !logits

  // Cross-entropy of every position against its target token, averaged
  // over batch and seq.
  %losses = tessel.softmax_cross_entropy %logits, %targets over "vocab"
      : !logits, !tokens -> !tokens_f32
  %loss = tessel.reduce mean %losses : !tokens_f32 -> !scalar
  return %loss : !scalar
}
