// The deeper twin of tiny_transformer.mlir, of the same sizes: `tessel
// calibrate` takes the growth of the peak resident memory between the two,
// per runtime call site, for what the runtime keeps for each call site of
// a compiled program (the machine profile's memory.call_site_bytes).
// Written by examples/transformer/generate.py --layers 16 --d-model 8
// --heads 1 --d-ff 8 --seq 4 --batch 4.
//
// A decoder-only Transformer with 16 pre-LN blocks, written with named
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
  // Attention of block 0: query, key, value and output projections.
  %wq_0 = tessel.parameter "block0_attn_wq" normal scale 0.02 seed 3
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_0 = tessel.parameter "block0_attn_wk" normal scale 0.02 seed 4
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_0 = tessel.parameter "block0_attn_wv" normal scale 0.02 seed 5
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_0 = tessel.parameter "block0_attn_wo" normal scale 0.02 seed 6
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 0: d_model -> d_ff -> d_model, with biases.
  %w_ff1_0 = tessel.parameter "block0_mlp_w1" normal scale 0.02 seed 7
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_0 = tessel.parameter "block0_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_0 = tessel.parameter "block0_mlp_w2" normal scale 0.02 seed 8
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_0 = tessel.parameter "block0_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 0: before attention, before the MLP.
  %ln1_g_0 = tessel.parameter "block0_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_0 = tessel.parameter "block0_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_0 = tessel.parameter "block0_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_0 = tessel.parameter "block0_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 1: query, key, value and output projections.
  %wq_1 = tessel.parameter "block1_attn_wq" normal scale 0.02 seed 9
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_1 = tessel.parameter "block1_attn_wk" normal scale 0.02 seed 10
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_1 = tessel.parameter "block1_attn_wv" normal scale 0.02 seed 11
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_1 = tessel.parameter "block1_attn_wo" normal scale 0.02 seed 12
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 1: d_model -> d_ff -> d_model, with biases.
  %w_ff1_1 = tessel.parameter "block1_mlp_w1" normal scale 0.02 seed 13
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_1 = tessel.parameter "block1_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_1 = tessel.parameter "block1_mlp_w2" normal scale 0.02 seed 14
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_1 = tessel.parameter "block1_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 1: before attention, before the MLP.
  %ln1_g_1 = tessel.parameter "block1_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_1 = tessel.parameter "block1_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_1 = tessel.parameter "block1_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_1 = tessel.parameter "block1_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 2: query, key, value and output projections.
  %wq_2 = tessel.parameter "block2_attn_wq" normal scale 0.02 seed 15
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_2 = tessel.parameter "block2_attn_wk" normal scale 0.02 seed 16
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_2 = tessel.parameter "block2_attn_wv" normal scale 0.02 seed 17
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_2 = tessel.parameter "block2_attn_wo" normal scale 0.02 seed 18
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 2: d_model -> d_ff -> d_model, with biases.
  %w_ff1_2 = tessel.parameter "block2_mlp_w1" normal scale 0.02 seed 19
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_2 = tessel.parameter "block2_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_2 = tessel.parameter "block2_mlp_w2" normal scale 0.02 seed 20
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_2 = tessel.parameter "block2_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 2: before attention, before the MLP.
  %ln1_g_2 = tessel.parameter "block2_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_2 = tessel.parameter "block2_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_2 = tessel.parameter "block2_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_2 = tessel.parameter "block2_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 3: query, key, value and output projections.
  %wq_3 = tessel.parameter "block3_attn_wq" normal scale 0.02 seed 21
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_3 = tessel.parameter "block3_attn_wk" normal scale 0.02 seed 22
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_3 = tessel.parameter "block3_attn_wv" normal scale 0.02 seed 23
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_3 = tessel.parameter "block3_attn_wo" normal scale 0.02 seed 24
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 3: d_model -> d_ff -> d_model, with biases.
  %w_ff1_3 = tessel.parameter "block3_mlp_w1" normal scale 0.02 seed 25
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_3 = tessel.parameter "block3_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_3 = tessel.parameter "block3_mlp_w2" normal scale 0.02 seed 26
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_3 = tessel.parameter "block3_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 3: before attention, before the MLP.
  %ln1_g_3 = tessel.parameter "block3_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_3 = tessel.parameter "block3_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_3 = tessel.parameter "block3_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_3 = tessel.parameter "block3_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 4: query, key, value and output projections.
  %wq_4 = tessel.parameter "block4_attn_wq" normal scale 0.02 seed 27
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_4 = tessel.parameter "block4_attn_wk" normal scale 0.02 seed 28
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_4 = tessel.parameter "block4_attn_wv" normal scale 0.02 seed 29
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_4 = tessel.parameter "block4_attn_wo" normal scale 0.02 seed 30
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 4: d_model -> d_ff -> d_model, with biases.
  %w_ff1_4 = tessel.parameter "block4_mlp_w1" normal scale 0.02 seed 31
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_4 = tessel.parameter "block4_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_4 = tessel.parameter "block4_mlp_w2" normal scale 0.02 seed 32
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_4 = tessel.parameter "block4_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 4: before attention, before the MLP.
  %ln1_g_4 = tessel.parameter "block4_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_4 = tessel.parameter "block4_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_4 = tessel.parameter "block4_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_4 = tessel.parameter "block4_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 5: query, key, value and output projections.
  %wq_5 = tessel.parameter "block5_attn_wq" normal scale 0.02 seed 33
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_5 = tessel.parameter "block5_attn_wk" normal scale 0.02 seed 34
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_5 = tessel.parameter "block5_attn_wv" normal scale 0.02 seed 35
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_5 = tessel.parameter "block5_attn_wo" normal scale 0.02 seed 36
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 5: d_model -> d_ff -> d_model, with biases.
  %w_ff1_5 = tessel.parameter "block5_mlp_w1" normal scale 0.02 seed 37
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_5 = tessel.parameter "block5_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_5 = tessel.parameter "block5_mlp_w2" normal scale 0.02 seed 38
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_5 = tessel.parameter "block5_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 5: before attention, before the MLP.
  %ln1_g_5 = tessel.parameter "block5_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_5 = tessel.parameter "block5_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_5 = tessel.parameter "block5_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_5 = tessel.parameter "block5_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 6: query, key, value and output projections.
  %wq_6 = tessel.parameter "block6_attn_wq" normal scale 0.02 seed 39
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_6 = tessel.parameter "block6_attn_wk" normal scale 0.02 seed 40
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_6 = tessel.parameter "block6_attn_wv" normal scale 0.02 seed 41
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_6 = tessel.parameter "block6_attn_wo" normal scale 0.02 seed 42
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 6: d_model -> d_ff -> d_model, with biases.
  %w_ff1_6 = tessel.parameter "block6_mlp_w1" normal scale 0.02 seed 43
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_6 = tessel.parameter "block6_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_6 = tessel.parameter "block6_mlp_w2" normal scale 0.02 seed 44
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_6 = tessel.parameter "block6_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 6: before attention, before the MLP.
  %ln1_g_6 = tessel.parameter "block6_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_6 = tessel.parameter "block6_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_6 = tessel.parameter "block6_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_6 = tessel.parameter "block6_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 7: query, key, value and output projections.
  %wq_7 = tessel.parameter "block7_attn_wq" normal scale 0.02 seed 45
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_7 = tessel.parameter "block7_attn_wk" normal scale 0.02 seed 46
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_7 = tessel.parameter "block7_attn_wv" normal scale 0.02 seed 47
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_7 = tessel.parameter "block7_attn_wo" normal scale 0.02 seed 48
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 7: d_model -> d_ff -> d_model, with biases.
  %w_ff1_7 = tessel.parameter "block7_mlp_w1" normal scale 0.02 seed 49
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_7 = tessel.parameter "block7_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_7 = tessel.parameter "block7_mlp_w2" normal scale 0.02 seed 50
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_7 = tessel.parameter "block7_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 7: before attention, before the MLP.
  %ln1_g_7 = tessel.parameter "block7_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_7 = tessel.parameter "block7_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_7 = tessel.parameter "block7_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_7 = tessel.parameter "block7_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 8: query, key, value and output projections.
  %wq_8 = tessel.parameter "block8_attn_wq" normal scale 0.02 seed 51
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_8 = tessel.parameter "block8_attn_wk" normal scale 0.02 seed 52
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_8 = tessel.parameter "block8_attn_wv" normal scale 0.02 seed 53
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_8 = tessel.parameter "block8_attn_wo" normal scale 0.02 seed 54
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 8: d_model -> d_ff -> d_model, with biases.
  %w_ff1_8 = tessel.parameter "block8_mlp_w1" normal scale 0.02 seed 55
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_8 = tessel.parameter "block8_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_8 = tessel.parameter "block8_mlp_w2" normal scale 0.02 seed 56
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_8 = tessel.parameter "block8_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 8: before attention, before the MLP.
  %ln1_g_8 = tessel.parameter "block8_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_8 = tessel.parameter "block8_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_8 = tessel.parameter "block8_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_8 = tessel.parameter "block8_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 9: query, key, value and output projections.
  %wq_9 = tessel.parameter "block9_attn_wq" normal scale 0.02 seed 57
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_9 = tessel.parameter "block9_attn_wk" normal scale 0.02 seed 58
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_9 = tessel.parameter "block9_attn_wv" normal scale 0.02 seed 59
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_9 = tessel.parameter "block9_attn_wo" normal scale 0.02 seed 60
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 9: d_model -> d_ff -> d_model, with biases.
  %w_ff1_9 = tessel.parameter "block9_mlp_w1" normal scale 0.02 seed 61
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_9 = tessel.parameter "block9_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_9 = tessel.parameter "block9_mlp_w2" normal scale 0.02 seed 62
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_9 = tessel.parameter "block9_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 9: before attention, before the MLP.
  %ln1_g_9 = tessel.parameter "block9_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_9 = tessel.parameter "block9_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_9 = tessel.parameter "block9_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_9 = tessel.parameter "block9_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 10: query, key, value and output projections.
  %wq_10 = tessel.parameter "block10_attn_wq" normal scale 0.02 seed 63
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_10 = tessel.parameter "block10_attn_wk" normal scale 0.02 seed 64
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_10 = tessel.parameter "block10_attn_wv" normal scale 0.02 seed 65
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_10 = tessel.parameter "block10_attn_wo" normal scale 0.02 seed 66
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 10: d_model -> d_ff -> d_model, with biases.
  %w_ff1_10 = tessel.parameter "block10_mlp_w1" normal scale 0.02 seed 67
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_10 = tessel.parameter "block10_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_10 = tessel.parameter "block10_mlp_w2" normal scale 0.02 seed 68
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_10 = tessel.parameter "block10_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 10: before attention, before the MLP.
  %ln1_g_10 = tessel.parameter "block10_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_10 = tessel.parameter "block10_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_10 = tessel.parameter "block10_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_10 = tessel.parameter "block10_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 11: query, key, value and output projections.
  %wq_11 = tessel.parameter "block11_attn_wq" normal scale 0.02 seed 69
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_11 = tessel.parameter "block11_attn_wk" normal scale 0.02 seed 70
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_11 = tessel.parameter "block11_attn_wv" normal scale 0.02 seed 71
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_11 = tessel.parameter "block11_attn_wo" normal scale 0.02 seed 72
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 11: d_model -> d_ff -> d_model, with biases.
  %w_ff1_11 = tessel.parameter "block11_mlp_w1" normal scale 0.02 seed 73
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_11 = tessel.parameter "block11_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_11 = tessel.parameter "block11_mlp_w2" normal scale 0.02 seed 74
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_11 = tessel.parameter "block11_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 11: before attention, before the MLP.
  %ln1_g_11 = tessel.parameter "block11_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_11 = tessel.parameter "block11_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_11 = tessel.parameter "block11_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_11 = tessel.parameter "block11_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 12: query, key, value and output projections.
  %wq_12 = tessel.parameter "block12_attn_wq" normal scale 0.02 seed 75
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_12 = tessel.parameter "block12_attn_wk" normal scale 0.02 seed 76
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_12 = tessel.parameter "block12_attn_wv" normal scale 0.02 seed 77
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_12 = tessel.parameter "block12_attn_wo" normal scale 0.02 seed 78
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 12: d_model -> d_ff -> d_model, with biases.
  %w_ff1_12 = tessel.parameter "block12_mlp_w1" normal scale 0.02 seed 79
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_12 = tessel.parameter "block12_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_12 = tessel.parameter "block12_mlp_w2" normal scale 0.02 seed 80
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_12 = tessel.parameter "block12_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 12: before attention, before the MLP.
  %ln1_g_12 = tessel.parameter "block12_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_12 = tessel.parameter "block12_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_12 = tessel.parameter "block12_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_12 = tessel.parameter "block12_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 13: query, key, value and output projections.
  %wq_13 = tessel.parameter "block13_attn_wq" normal scale 0.02 seed 81
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_13 = tessel.parameter "block13_attn_wk" normal scale 0.02 seed 82
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_13 = tessel.parameter "block13_attn_wv" normal scale 0.02 seed 83
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_13 = tessel.parameter "block13_attn_wo" normal scale 0.02 seed 84
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 13: d_model -> d_ff -> d_model, with biases.
  %w_ff1_13 = tessel.parameter "block13_mlp_w1" normal scale 0.02 seed 85
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_13 = tessel.parameter "block13_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_13 = tessel.parameter "block13_mlp_w2" normal scale 0.02 seed 86
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_13 = tessel.parameter "block13_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 13: before attention, before the MLP.
  %ln1_g_13 = tessel.parameter "block13_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_13 = tessel.parameter "block13_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_13 = tessel.parameter "block13_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_13 = tessel.parameter "block13_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 14: query, key, value and output projections.
  %wq_14 = tessel.parameter "block14_attn_wq" normal scale 0.02 seed 87
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_14 = tessel.parameter "block14_attn_wk" normal scale 0.02 seed 88
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_14 = tessel.parameter "block14_attn_wv" normal scale 0.02 seed 89
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_14 = tessel.parameter "block14_attn_wo" normal scale 0.02 seed 90
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 14: d_model -> d_ff -> d_model, with biases.
  %w_ff1_14 = tessel.parameter "block14_mlp_w1" normal scale 0.02 seed 91
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_14 = tessel.parameter "block14_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_14 = tessel.parameter "block14_mlp_w2" normal scale 0.02 seed 92
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_14 = tessel.parameter "block14_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 14: before attention, before the MLP.
  %ln1_g_14 = tessel.parameter "block14_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_14 = tessel.parameter "block14_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_14 = tessel.parameter "block14_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_14 = tessel.parameter "block14_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // Attention of block 15: query, key, value and output projections.
  %wq_15 = tessel.parameter "block15_attn_wq" normal scale 0.02 seed 93
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wk_15 = tessel.parameter "block15_attn_wk" normal scale 0.02 seed 94
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wv_15 = tessel.parameter "block15_attn_wv" normal scale 0.02 seed 95
      : !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>
  %wo_15 = tessel.parameter "block15_attn_wo" normal scale 0.02 seed 96
      : !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>
  // MLP of block 15: d_model -> d_ff -> d_model, with biases.
  %w_ff1_15 = tessel.parameter "block15_mlp_w1" normal scale 0.02 seed 97
      : !tessel.tensor<[d_model:8, d_ff:8], f32>
  %b_ff1_15 = tessel.parameter "block15_mlp_b1" zeros scale 1.0 seed 0
      : !tessel.tensor<[d_ff:8], f32>
  %w_ff2_15 = tessel.parameter "block15_mlp_w2" normal scale 0.02 seed 98
      : !tessel.tensor<[d_ff:8, d_model:8], f32>
  %b_ff2_15 = tessel.parameter "block15_mlp_b2" zeros scale 1.0 seed 0 : !vec
  // Layer norms of block 15: before attention, before the MLP.
  %ln1_g_15 = tessel.parameter "block15_ln1_gamma" ones scale 1.0 seed 0 : !vec
  %ln1_b_15 = tessel.parameter "block15_ln1_beta" zeros scale 1.0 seed 0 : !vec
  %ln2_g_15 = tessel.parameter "block15_ln2_gamma" ones scale 1.0 seed 0 : !vec
  %ln2_b_15 = tessel.parameter "block15_ln2_beta" zeros scale 1.0 seed 0 : !vec
  // The final layer norm.
  %lnf_g = tessel.parameter "lnf_gamma" ones scale 1.0 seed 0 : !vec
  %lnf_b = tessel.parameter "lnf_beta" zeros scale 1.0 seed 0 : !vec
  // The unembedding, not tied to the token embedding.
  %w_out = tessel.parameter "unembed" normal scale 0.02 seed 99
      : !tessel.tensor<[d_model:8, vocab:256], f32>

  //===--------------------------------------------------------------------===//
  // Embedding: look up each token's row and add its position's row
  //===--------------------------------------------------------------------===//

  %x_tok = tessel.gather %tok_emb[%tokens] over "vocab"
      : !tessel.tensor<[vocab:256, d_model:8], f32>, !tokens -> !act
  %x0 = tessel.add %x_tok, %pos_emb
      : !act, !tessel.tensor<[seq:4, d_model:8], f32> -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 0: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_0 = tessel.layer_norm %x0 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_0 = tessel.mul %n1_0, %ln1_g_0 : !act, !vec -> !act
  %h1_0 = tessel.add %n1_g_0, %ln1_b_0 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_0 = tessel.einsum %h1_0, %wq_0
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_0 = tessel.einsum %h1_0, %wk_0
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_0 = tessel.einsum %h1_0, %wv_0
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_0 = tessel.rename %k_seq_0 : !heads -> !keys
  %v_0 = tessel.rename %v_seq_0 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_0 = tessel.einsum %q_0, %k_0 : (!heads, !keys) -> !scores
  %inv_sqrt_d_0 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_0 = tessel.mul %qk_0, %inv_sqrt_d_0 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_0 = tessel.iota "seq" : !pos
  %k_pos_0 = tessel.iota "key" : !pos
  %causal_0 = tessel.compare ge, %q_pos_0, %k_pos_0 : !pos, !pos -> !mask
  %neg_inf_0 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_0 = tessel.select %causal_0, %scaled_0, %neg_inf_0
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_0 = tessel.softmax %masked_0 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_0 = tessel.einsum %probs_0, %v_0 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_0 = tessel.einsum %attn_0, %wo_0
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x1 = tessel.add %x0, %attn_out_0 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 0: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_0 = tessel.layer_norm %x1 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_0 = tessel.mul %n2_0, %ln2_g_0 : !act, !vec -> !act
  %h2_0 = tessel.add %n2_g_0, %ln2_b_0 : !act, !vec -> !act

  %ff1_0 = tessel.einsum %h2_0, %w_ff1_0
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_0 = tessel.add %ff1_0, %b_ff1_0 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_0 = tessel.gelu %ff1_b_0 : !ff
  %ff2_0 = tessel.einsum %ff1_act_0, %w_ff2_0
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_0 = tessel.add %ff2_0, %b_ff2_0 : !act, !vec -> !act

  // Residual connection.
  %x2 = tessel.add %x1, %ff2_b_0 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 1: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_1 = tessel.layer_norm %x2 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_1 = tessel.mul %n1_1, %ln1_g_1 : !act, !vec -> !act
  %h1_1 = tessel.add %n1_g_1, %ln1_b_1 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_1 = tessel.einsum %h1_1, %wq_1
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_1 = tessel.einsum %h1_1, %wk_1
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_1 = tessel.einsum %h1_1, %wv_1
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_1 = tessel.rename %k_seq_1 : !heads -> !keys
  %v_1 = tessel.rename %v_seq_1 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_1 = tessel.einsum %q_1, %k_1 : (!heads, !keys) -> !scores
  %inv_sqrt_d_1 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_1 = tessel.mul %qk_1, %inv_sqrt_d_1 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_1 = tessel.iota "seq" : !pos
  %k_pos_1 = tessel.iota "key" : !pos
  %causal_1 = tessel.compare ge, %q_pos_1, %k_pos_1 : !pos, !pos -> !mask
  %neg_inf_1 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_1 = tessel.select %causal_1, %scaled_1, %neg_inf_1
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_1 = tessel.softmax %masked_1 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_1 = tessel.einsum %probs_1, %v_1 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_1 = tessel.einsum %attn_1, %wo_1
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x3 = tessel.add %x2, %attn_out_1 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 1: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_1 = tessel.layer_norm %x3 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_1 = tessel.mul %n2_1, %ln2_g_1 : !act, !vec -> !act
  %h2_1 = tessel.add %n2_g_1, %ln2_b_1 : !act, !vec -> !act

  %ff1_1 = tessel.einsum %h2_1, %w_ff1_1
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_1 = tessel.add %ff1_1, %b_ff1_1 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_1 = tessel.gelu %ff1_b_1 : !ff
  %ff2_1 = tessel.einsum %ff1_act_1, %w_ff2_1
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_1 = tessel.add %ff2_1, %b_ff2_1 : !act, !vec -> !act

  // Residual connection.
  %x4 = tessel.add %x3, %ff2_b_1 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 2: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_2 = tessel.layer_norm %x4 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_2 = tessel.mul %n1_2, %ln1_g_2 : !act, !vec -> !act
  %h1_2 = tessel.add %n1_g_2, %ln1_b_2 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_2 = tessel.einsum %h1_2, %wq_2
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_2 = tessel.einsum %h1_2, %wk_2
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_2 = tessel.einsum %h1_2, %wv_2
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_2 = tessel.rename %k_seq_2 : !heads -> !keys
  %v_2 = tessel.rename %v_seq_2 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_2 = tessel.einsum %q_2, %k_2 : (!heads, !keys) -> !scores
  %inv_sqrt_d_2 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_2 = tessel.mul %qk_2, %inv_sqrt_d_2 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_2 = tessel.iota "seq" : !pos
  %k_pos_2 = tessel.iota "key" : !pos
  %causal_2 = tessel.compare ge, %q_pos_2, %k_pos_2 : !pos, !pos -> !mask
  %neg_inf_2 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_2 = tessel.select %causal_2, %scaled_2, %neg_inf_2
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_2 = tessel.softmax %masked_2 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_2 = tessel.einsum %probs_2, %v_2 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_2 = tessel.einsum %attn_2, %wo_2
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x5 = tessel.add %x4, %attn_out_2 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 2: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_2 = tessel.layer_norm %x5 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_2 = tessel.mul %n2_2, %ln2_g_2 : !act, !vec -> !act
  %h2_2 = tessel.add %n2_g_2, %ln2_b_2 : !act, !vec -> !act

  %ff1_2 = tessel.einsum %h2_2, %w_ff1_2
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_2 = tessel.add %ff1_2, %b_ff1_2 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_2 = tessel.gelu %ff1_b_2 : !ff
  %ff2_2 = tessel.einsum %ff1_act_2, %w_ff2_2
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_2 = tessel.add %ff2_2, %b_ff2_2 : !act, !vec -> !act

  // Residual connection.
  %x6 = tessel.add %x5, %ff2_b_2 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 3: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_3 = tessel.layer_norm %x6 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_3 = tessel.mul %n1_3, %ln1_g_3 : !act, !vec -> !act
  %h1_3 = tessel.add %n1_g_3, %ln1_b_3 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_3 = tessel.einsum %h1_3, %wq_3
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_3 = tessel.einsum %h1_3, %wk_3
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_3 = tessel.einsum %h1_3, %wv_3
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_3 = tessel.rename %k_seq_3 : !heads -> !keys
  %v_3 = tessel.rename %v_seq_3 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_3 = tessel.einsum %q_3, %k_3 : (!heads, !keys) -> !scores
  %inv_sqrt_d_3 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_3 = tessel.mul %qk_3, %inv_sqrt_d_3 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_3 = tessel.iota "seq" : !pos
  %k_pos_3 = tessel.iota "key" : !pos
  %causal_3 = tessel.compare ge, %q_pos_3, %k_pos_3 : !pos, !pos -> !mask
  %neg_inf_3 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_3 = tessel.select %causal_3, %scaled_3, %neg_inf_3
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_3 = tessel.softmax %masked_3 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_3 = tessel.einsum %probs_3, %v_3 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_3 = tessel.einsum %attn_3, %wo_3
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x7 = tessel.add %x6, %attn_out_3 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 3: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_3 = tessel.layer_norm %x7 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_3 = tessel.mul %n2_3, %ln2_g_3 : !act, !vec -> !act
  %h2_3 = tessel.add %n2_g_3, %ln2_b_3 : !act, !vec -> !act

  %ff1_3 = tessel.einsum %h2_3, %w_ff1_3
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_3 = tessel.add %ff1_3, %b_ff1_3 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_3 = tessel.gelu %ff1_b_3 : !ff
  %ff2_3 = tessel.einsum %ff1_act_3, %w_ff2_3
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_3 = tessel.add %ff2_3, %b_ff2_3 : !act, !vec -> !act

  // Residual connection.
  %x8 = tessel.add %x7, %ff2_b_3 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 4: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_4 = tessel.layer_norm %x8 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_4 = tessel.mul %n1_4, %ln1_g_4 : !act, !vec -> !act
  %h1_4 = tessel.add %n1_g_4, %ln1_b_4 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_4 = tessel.einsum %h1_4, %wq_4
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_4 = tessel.einsum %h1_4, %wk_4
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_4 = tessel.einsum %h1_4, %wv_4
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_4 = tessel.rename %k_seq_4 : !heads -> !keys
  %v_4 = tessel.rename %v_seq_4 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_4 = tessel.einsum %q_4, %k_4 : (!heads, !keys) -> !scores
  %inv_sqrt_d_4 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_4 = tessel.mul %qk_4, %inv_sqrt_d_4 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_4 = tessel.iota "seq" : !pos
  %k_pos_4 = tessel.iota "key" : !pos
  %causal_4 = tessel.compare ge, %q_pos_4, %k_pos_4 : !pos, !pos -> !mask
  %neg_inf_4 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_4 = tessel.select %causal_4, %scaled_4, %neg_inf_4
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_4 = tessel.softmax %masked_4 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_4 = tessel.einsum %probs_4, %v_4 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_4 = tessel.einsum %attn_4, %wo_4
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x9 = tessel.add %x8, %attn_out_4 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 4: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_4 = tessel.layer_norm %x9 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_4 = tessel.mul %n2_4, %ln2_g_4 : !act, !vec -> !act
  %h2_4 = tessel.add %n2_g_4, %ln2_b_4 : !act, !vec -> !act

  %ff1_4 = tessel.einsum %h2_4, %w_ff1_4
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_4 = tessel.add %ff1_4, %b_ff1_4 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_4 = tessel.gelu %ff1_b_4 : !ff
  %ff2_4 = tessel.einsum %ff1_act_4, %w_ff2_4
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_4 = tessel.add %ff2_4, %b_ff2_4 : !act, !vec -> !act

  // Residual connection.
  %x10 = tessel.add %x9, %ff2_b_4 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 5: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_5 = tessel.layer_norm %x10 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_5 = tessel.mul %n1_5, %ln1_g_5 : !act, !vec -> !act
  %h1_5 = tessel.add %n1_g_5, %ln1_b_5 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_5 = tessel.einsum %h1_5, %wq_5
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_5 = tessel.einsum %h1_5, %wk_5
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_5 = tessel.einsum %h1_5, %wv_5
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_5 = tessel.rename %k_seq_5 : !heads -> !keys
  %v_5 = tessel.rename %v_seq_5 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_5 = tessel.einsum %q_5, %k_5 : (!heads, !keys) -> !scores
  %inv_sqrt_d_5 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_5 = tessel.mul %qk_5, %inv_sqrt_d_5 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_5 = tessel.iota "seq" : !pos
  %k_pos_5 = tessel.iota "key" : !pos
  %causal_5 = tessel.compare ge, %q_pos_5, %k_pos_5 : !pos, !pos -> !mask
  %neg_inf_5 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_5 = tessel.select %causal_5, %scaled_5, %neg_inf_5
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_5 = tessel.softmax %masked_5 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_5 = tessel.einsum %probs_5, %v_5 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_5 = tessel.einsum %attn_5, %wo_5
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x11 = tessel.add %x10, %attn_out_5 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 5: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_5 = tessel.layer_norm %x11 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_5 = tessel.mul %n2_5, %ln2_g_5 : !act, !vec -> !act
  %h2_5 = tessel.add %n2_g_5, %ln2_b_5 : !act, !vec -> !act

  %ff1_5 = tessel.einsum %h2_5, %w_ff1_5
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_5 = tessel.add %ff1_5, %b_ff1_5 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_5 = tessel.gelu %ff1_b_5 : !ff
  %ff2_5 = tessel.einsum %ff1_act_5, %w_ff2_5
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_5 = tessel.add %ff2_5, %b_ff2_5 : !act, !vec -> !act

  // Residual connection.
  %x12 = tessel.add %x11, %ff2_b_5 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 6: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_6 = tessel.layer_norm %x12 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_6 = tessel.mul %n1_6, %ln1_g_6 : !act, !vec -> !act
  %h1_6 = tessel.add %n1_g_6, %ln1_b_6 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_6 = tessel.einsum %h1_6, %wq_6
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_6 = tessel.einsum %h1_6, %wk_6
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_6 = tessel.einsum %h1_6, %wv_6
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_6 = tessel.rename %k_seq_6 : !heads -> !keys
  %v_6 = tessel.rename %v_seq_6 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_6 = tessel.einsum %q_6, %k_6 : (!heads, !keys) -> !scores
  %inv_sqrt_d_6 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_6 = tessel.mul %qk_6, %inv_sqrt_d_6 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_6 = tessel.iota "seq" : !pos
  %k_pos_6 = tessel.iota "key" : !pos
  %causal_6 = tessel.compare ge, %q_pos_6, %k_pos_6 : !pos, !pos -> !mask
  %neg_inf_6 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_6 = tessel.select %causal_6, %scaled_6, %neg_inf_6
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_6 = tessel.softmax %masked_6 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_6 = tessel.einsum %probs_6, %v_6 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_6 = tessel.einsum %attn_6, %wo_6
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x13 = tessel.add %x12, %attn_out_6 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 6: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_6 = tessel.layer_norm %x13 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_6 = tessel.mul %n2_6, %ln2_g_6 : !act, !vec -> !act
  %h2_6 = tessel.add %n2_g_6, %ln2_b_6 : !act, !vec -> !act

  %ff1_6 = tessel.einsum %h2_6, %w_ff1_6
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_6 = tessel.add %ff1_6, %b_ff1_6 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_6 = tessel.gelu %ff1_b_6 : !ff
  %ff2_6 = tessel.einsum %ff1_act_6, %w_ff2_6
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_6 = tessel.add %ff2_6, %b_ff2_6 : !act, !vec -> !act

  // Residual connection.
  %x14 = tessel.add %x13, %ff2_b_6 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 7: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_7 = tessel.layer_norm %x14 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_7 = tessel.mul %n1_7, %ln1_g_7 : !act, !vec -> !act
  %h1_7 = tessel.add %n1_g_7, %ln1_b_7 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_7 = tessel.einsum %h1_7, %wq_7
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_7 = tessel.einsum %h1_7, %wk_7
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_7 = tessel.einsum %h1_7, %wv_7
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_7 = tessel.rename %k_seq_7 : !heads -> !keys
  %v_7 = tessel.rename %v_seq_7 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_7 = tessel.einsum %q_7, %k_7 : (!heads, !keys) -> !scores
  %inv_sqrt_d_7 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_7 = tessel.mul %qk_7, %inv_sqrt_d_7 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_7 = tessel.iota "seq" : !pos
  %k_pos_7 = tessel.iota "key" : !pos
  %causal_7 = tessel.compare ge, %q_pos_7, %k_pos_7 : !pos, !pos -> !mask
  %neg_inf_7 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_7 = tessel.select %causal_7, %scaled_7, %neg_inf_7
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_7 = tessel.softmax %masked_7 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_7 = tessel.einsum %probs_7, %v_7 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_7 = tessel.einsum %attn_7, %wo_7
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x15 = tessel.add %x14, %attn_out_7 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 7: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_7 = tessel.layer_norm %x15 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_7 = tessel.mul %n2_7, %ln2_g_7 : !act, !vec -> !act
  %h2_7 = tessel.add %n2_g_7, %ln2_b_7 : !act, !vec -> !act

  %ff1_7 = tessel.einsum %h2_7, %w_ff1_7
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_7 = tessel.add %ff1_7, %b_ff1_7 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_7 = tessel.gelu %ff1_b_7 : !ff
  %ff2_7 = tessel.einsum %ff1_act_7, %w_ff2_7
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_7 = tessel.add %ff2_7, %b_ff2_7 : !act, !vec -> !act

  // Residual connection.
  %x16 = tessel.add %x15, %ff2_b_7 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 8: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_8 = tessel.layer_norm %x16 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_8 = tessel.mul %n1_8, %ln1_g_8 : !act, !vec -> !act
  %h1_8 = tessel.add %n1_g_8, %ln1_b_8 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_8 = tessel.einsum %h1_8, %wq_8
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_8 = tessel.einsum %h1_8, %wk_8
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_8 = tessel.einsum %h1_8, %wv_8
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_8 = tessel.rename %k_seq_8 : !heads -> !keys
  %v_8 = tessel.rename %v_seq_8 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_8 = tessel.einsum %q_8, %k_8 : (!heads, !keys) -> !scores
  %inv_sqrt_d_8 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_8 = tessel.mul %qk_8, %inv_sqrt_d_8 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_8 = tessel.iota "seq" : !pos
  %k_pos_8 = tessel.iota "key" : !pos
  %causal_8 = tessel.compare ge, %q_pos_8, %k_pos_8 : !pos, !pos -> !mask
  %neg_inf_8 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_8 = tessel.select %causal_8, %scaled_8, %neg_inf_8
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_8 = tessel.softmax %masked_8 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_8 = tessel.einsum %probs_8, %v_8 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_8 = tessel.einsum %attn_8, %wo_8
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x17 = tessel.add %x16, %attn_out_8 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 8: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_8 = tessel.layer_norm %x17 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_8 = tessel.mul %n2_8, %ln2_g_8 : !act, !vec -> !act
  %h2_8 = tessel.add %n2_g_8, %ln2_b_8 : !act, !vec -> !act

  %ff1_8 = tessel.einsum %h2_8, %w_ff1_8
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_8 = tessel.add %ff1_8, %b_ff1_8 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_8 = tessel.gelu %ff1_b_8 : !ff
  %ff2_8 = tessel.einsum %ff1_act_8, %w_ff2_8
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_8 = tessel.add %ff2_8, %b_ff2_8 : !act, !vec -> !act

  // Residual connection.
  %x18 = tessel.add %x17, %ff2_b_8 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 9: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_9 = tessel.layer_norm %x18 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_9 = tessel.mul %n1_9, %ln1_g_9 : !act, !vec -> !act
  %h1_9 = tessel.add %n1_g_9, %ln1_b_9 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_9 = tessel.einsum %h1_9, %wq_9
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_9 = tessel.einsum %h1_9, %wk_9
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_9 = tessel.einsum %h1_9, %wv_9
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_9 = tessel.rename %k_seq_9 : !heads -> !keys
  %v_9 = tessel.rename %v_seq_9 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_9 = tessel.einsum %q_9, %k_9 : (!heads, !keys) -> !scores
  %inv_sqrt_d_9 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_9 = tessel.mul %qk_9, %inv_sqrt_d_9 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_9 = tessel.iota "seq" : !pos
  %k_pos_9 = tessel.iota "key" : !pos
  %causal_9 = tessel.compare ge, %q_pos_9, %k_pos_9 : !pos, !pos -> !mask
  %neg_inf_9 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_9 = tessel.select %causal_9, %scaled_9, %neg_inf_9
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_9 = tessel.softmax %masked_9 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_9 = tessel.einsum %probs_9, %v_9 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_9 = tessel.einsum %attn_9, %wo_9
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x19 = tessel.add %x18, %attn_out_9 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 9: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_9 = tessel.layer_norm %x19 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_9 = tessel.mul %n2_9, %ln2_g_9 : !act, !vec -> !act
  %h2_9 = tessel.add %n2_g_9, %ln2_b_9 : !act, !vec -> !act

  %ff1_9 = tessel.einsum %h2_9, %w_ff1_9
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_9 = tessel.add %ff1_9, %b_ff1_9 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_9 = tessel.gelu %ff1_b_9 : !ff
  %ff2_9 = tessel.einsum %ff1_act_9, %w_ff2_9
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_9 = tessel.add %ff2_9, %b_ff2_9 : !act, !vec -> !act

  // Residual connection.
  %x20 = tessel.add %x19, %ff2_b_9 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 10: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_10 = tessel.layer_norm %x20 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_10 = tessel.mul %n1_10, %ln1_g_10 : !act, !vec -> !act
  %h1_10 = tessel.add %n1_g_10, %ln1_b_10 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_10 = tessel.einsum %h1_10, %wq_10
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_10 = tessel.einsum %h1_10, %wk_10
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_10 = tessel.einsum %h1_10, %wv_10
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_10 = tessel.rename %k_seq_10 : !heads -> !keys
  %v_10 = tessel.rename %v_seq_10 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_10 = tessel.einsum %q_10, %k_10 : (!heads, !keys) -> !scores
  %inv_sqrt_d_10 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_10 = tessel.mul %qk_10, %inv_sqrt_d_10 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_10 = tessel.iota "seq" : !pos
  %k_pos_10 = tessel.iota "key" : !pos
  %causal_10 = tessel.compare ge, %q_pos_10, %k_pos_10 : !pos, !pos -> !mask
  %neg_inf_10 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_10 = tessel.select %causal_10, %scaled_10, %neg_inf_10
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_10 = tessel.softmax %masked_10 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_10 = tessel.einsum %probs_10, %v_10 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_10 = tessel.einsum %attn_10, %wo_10
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x21 = tessel.add %x20, %attn_out_10 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 10: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_10 = tessel.layer_norm %x21 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_10 = tessel.mul %n2_10, %ln2_g_10 : !act, !vec -> !act
  %h2_10 = tessel.add %n2_g_10, %ln2_b_10 : !act, !vec -> !act

  %ff1_10 = tessel.einsum %h2_10, %w_ff1_10
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_10 = tessel.add %ff1_10, %b_ff1_10 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_10 = tessel.gelu %ff1_b_10 : !ff
  %ff2_10 = tessel.einsum %ff1_act_10, %w_ff2_10
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_10 = tessel.add %ff2_10, %b_ff2_10 : !act, !vec -> !act

  // Residual connection.
  %x22 = tessel.add %x21, %ff2_b_10 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 11: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_11 = tessel.layer_norm %x22 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_11 = tessel.mul %n1_11, %ln1_g_11 : !act, !vec -> !act
  %h1_11 = tessel.add %n1_g_11, %ln1_b_11 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_11 = tessel.einsum %h1_11, %wq_11
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_11 = tessel.einsum %h1_11, %wk_11
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_11 = tessel.einsum %h1_11, %wv_11
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_11 = tessel.rename %k_seq_11 : !heads -> !keys
  %v_11 = tessel.rename %v_seq_11 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_11 = tessel.einsum %q_11, %k_11 : (!heads, !keys) -> !scores
  %inv_sqrt_d_11 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_11 = tessel.mul %qk_11, %inv_sqrt_d_11 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_11 = tessel.iota "seq" : !pos
  %k_pos_11 = tessel.iota "key" : !pos
  %causal_11 = tessel.compare ge, %q_pos_11, %k_pos_11 : !pos, !pos -> !mask
  %neg_inf_11 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_11 = tessel.select %causal_11, %scaled_11, %neg_inf_11
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_11 = tessel.softmax %masked_11 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_11 = tessel.einsum %probs_11, %v_11 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_11 = tessel.einsum %attn_11, %wo_11
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x23 = tessel.add %x22, %attn_out_11 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 11: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_11 = tessel.layer_norm %x23 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_11 = tessel.mul %n2_11, %ln2_g_11 : !act, !vec -> !act
  %h2_11 = tessel.add %n2_g_11, %ln2_b_11 : !act, !vec -> !act

  %ff1_11 = tessel.einsum %h2_11, %w_ff1_11
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_11 = tessel.add %ff1_11, %b_ff1_11 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_11 = tessel.gelu %ff1_b_11 : !ff
  %ff2_11 = tessel.einsum %ff1_act_11, %w_ff2_11
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_11 = tessel.add %ff2_11, %b_ff2_11 : !act, !vec -> !act

  // Residual connection.
  %x24 = tessel.add %x23, %ff2_b_11 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 12: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_12 = tessel.layer_norm %x24 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_12 = tessel.mul %n1_12, %ln1_g_12 : !act, !vec -> !act
  %h1_12 = tessel.add %n1_g_12, %ln1_b_12 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_12 = tessel.einsum %h1_12, %wq_12
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_12 = tessel.einsum %h1_12, %wk_12
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_12 = tessel.einsum %h1_12, %wv_12
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_12 = tessel.rename %k_seq_12 : !heads -> !keys
  %v_12 = tessel.rename %v_seq_12 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_12 = tessel.einsum %q_12, %k_12 : (!heads, !keys) -> !scores
  %inv_sqrt_d_12 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_12 = tessel.mul %qk_12, %inv_sqrt_d_12 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_12 = tessel.iota "seq" : !pos
  %k_pos_12 = tessel.iota "key" : !pos
  %causal_12 = tessel.compare ge, %q_pos_12, %k_pos_12 : !pos, !pos -> !mask
  %neg_inf_12 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_12 = tessel.select %causal_12, %scaled_12, %neg_inf_12
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_12 = tessel.softmax %masked_12 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_12 = tessel.einsum %probs_12, %v_12 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_12 = tessel.einsum %attn_12, %wo_12
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x25 = tessel.add %x24, %attn_out_12 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 12: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_12 = tessel.layer_norm %x25 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_12 = tessel.mul %n2_12, %ln2_g_12 : !act, !vec -> !act
  %h2_12 = tessel.add %n2_g_12, %ln2_b_12 : !act, !vec -> !act

  %ff1_12 = tessel.einsum %h2_12, %w_ff1_12
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_12 = tessel.add %ff1_12, %b_ff1_12 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_12 = tessel.gelu %ff1_b_12 : !ff
  %ff2_12 = tessel.einsum %ff1_act_12, %w_ff2_12
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_12 = tessel.add %ff2_12, %b_ff2_12 : !act, !vec -> !act

  // Residual connection.
  %x26 = tessel.add %x25, %ff2_b_12 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 13: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_13 = tessel.layer_norm %x26 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_13 = tessel.mul %n1_13, %ln1_g_13 : !act, !vec -> !act
  %h1_13 = tessel.add %n1_g_13, %ln1_b_13 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_13 = tessel.einsum %h1_13, %wq_13
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_13 = tessel.einsum %h1_13, %wk_13
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_13 = tessel.einsum %h1_13, %wv_13
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_13 = tessel.rename %k_seq_13 : !heads -> !keys
  %v_13 = tessel.rename %v_seq_13 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_13 = tessel.einsum %q_13, %k_13 : (!heads, !keys) -> !scores
  %inv_sqrt_d_13 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_13 = tessel.mul %qk_13, %inv_sqrt_d_13 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_13 = tessel.iota "seq" : !pos
  %k_pos_13 = tessel.iota "key" : !pos
  %causal_13 = tessel.compare ge, %q_pos_13, %k_pos_13 : !pos, !pos -> !mask
  %neg_inf_13 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_13 = tessel.select %causal_13, %scaled_13, %neg_inf_13
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_13 = tessel.softmax %masked_13 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_13 = tessel.einsum %probs_13, %v_13 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_13 = tessel.einsum %attn_13, %wo_13
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x27 = tessel.add %x26, %attn_out_13 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 13: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_13 = tessel.layer_norm %x27 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_13 = tessel.mul %n2_13, %ln2_g_13 : !act, !vec -> !act
  %h2_13 = tessel.add %n2_g_13, %ln2_b_13 : !act, !vec -> !act

  %ff1_13 = tessel.einsum %h2_13, %w_ff1_13
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_13 = tessel.add %ff1_13, %b_ff1_13 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_13 = tessel.gelu %ff1_b_13 : !ff
  %ff2_13 = tessel.einsum %ff1_act_13, %w_ff2_13
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_13 = tessel.add %ff2_13, %b_ff2_13 : !act, !vec -> !act

  // Residual connection.
  %x28 = tessel.add %x27, %ff2_b_13 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 14: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_14 = tessel.layer_norm %x28 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_14 = tessel.mul %n1_14, %ln1_g_14 : !act, !vec -> !act
  %h1_14 = tessel.add %n1_g_14, %ln1_b_14 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_14 = tessel.einsum %h1_14, %wq_14
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_14 = tessel.einsum %h1_14, %wk_14
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_14 = tessel.einsum %h1_14, %wv_14
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_14 = tessel.rename %k_seq_14 : !heads -> !keys
  %v_14 = tessel.rename %v_seq_14 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_14 = tessel.einsum %q_14, %k_14 : (!heads, !keys) -> !scores
  %inv_sqrt_d_14 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_14 = tessel.mul %qk_14, %inv_sqrt_d_14 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_14 = tessel.iota "seq" : !pos
  %k_pos_14 = tessel.iota "key" : !pos
  %causal_14 = tessel.compare ge, %q_pos_14, %k_pos_14 : !pos, !pos -> !mask
  %neg_inf_14 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_14 = tessel.select %causal_14, %scaled_14, %neg_inf_14
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_14 = tessel.softmax %masked_14 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_14 = tessel.einsum %probs_14, %v_14 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_14 = tessel.einsum %attn_14, %wo_14
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x29 = tessel.add %x28, %attn_out_14 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 14: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_14 = tessel.layer_norm %x29 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_14 = tessel.mul %n2_14, %ln2_g_14 : !act, !vec -> !act
  %h2_14 = tessel.add %n2_g_14, %ln2_b_14 : !act, !vec -> !act

  %ff1_14 = tessel.einsum %h2_14, %w_ff1_14
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_14 = tessel.add %ff1_14, %b_ff1_14 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_14 = tessel.gelu %ff1_b_14 : !ff
  %ff2_14 = tessel.einsum %ff1_act_14, %w_ff2_14
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_14 = tessel.add %ff2_14, %b_ff2_14 : !act, !vec -> !act

  // Residual connection.
  %x30 = tessel.add %x29, %ff2_b_14 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Attention sub-block of block 15: layer norm, then causal multi-head self-attention
  //===--------------------------------------------------------------------===//

  // Pre-attention layer norm; gamma and beta broadcast over batch and seq.
  %n1_15 = tessel.layer_norm %x30 over ["d_model"] epsilon 1.0e-05 : !act
  %n1_g_15 = tessel.mul %n1_15, %ln1_g_15 : !act, !vec -> !act
  %h1_15 = tessel.add %n1_g_15, %ln1_b_15 : !act, !vec -> !act

  // Q, K and V: contract d_model into heads x head_dim.
  %q_15 = tessel.einsum %h1_15, %wq_15
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %k_seq_15 = tessel.einsum %h1_15, %wk_15
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads
  %v_seq_15 = tessel.einsum %h1_15, %wv_15
      : (!act, !tessel.tensor<[d_model:8, heads:1, head_dim:8], f32>) -> !heads

  // Keys and values are indexed by `key`, so that the score einsum keeps the
  // query position `seq` and the key position apart.
  %k_15 = tessel.rename %k_seq_15 : !heads -> !keys
  %v_15 = tessel.rename %v_seq_15 : !heads -> !keys

  // Scores: contract head_dim, scaled by 1 / sqrt(head_dim) = 1 / sqrt(8).
  %qk_15 = tessel.einsum %q_15, %k_15 : (!heads, !keys) -> !scores
  %inv_sqrt_d_15 = tessel.constant 0.35355339059327373 : f32 -> !scalar
  %scaled_15 = tessel.mul %qk_15, %inv_sqrt_d_15 : !scores, !scalar -> !scores

  // Causal mask: query position `seq` may attend to key positions <= seq.
  %q_pos_15 = tessel.iota "seq" : !pos
  %k_pos_15 = tessel.iota "key" : !pos
  %causal_15 = tessel.compare ge, %q_pos_15, %k_pos_15 : !pos, !pos -> !mask
  %neg_inf_15 = tessel.constant -1.0e9 : f32 -> !scalar
  %masked_15 = tessel.select %causal_15, %scaled_15, %neg_inf_15
      : !mask, !scores, !scalar -> !scores

  // Attention weights over the keys.
  %probs_15 = tessel.softmax %masked_15 over "key" : !scores

  // Weighted sum of the values: contract key.
  %attn_15 = tessel.einsum %probs_15, %v_15 : (!scores, !keys) -> !heads

  // Output projection: contract heads and head_dim back into d_model.
  %attn_out_15 = tessel.einsum %attn_15, %wo_15
      : (!heads, !tessel.tensor<[heads:1, head_dim:8, d_model:8], f32>) -> !act

  // Residual connection.
  %x31 = tessel.add %x30, %attn_out_15 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // MLP sub-block of block 15: layer norm, d_model -> d_ff (gelu) -> d_model
  //===--------------------------------------------------------------------===//

  %n2_15 = tessel.layer_norm %x31 over ["d_model"] epsilon 1.0e-05 : !act
  %n2_g_15 = tessel.mul %n2_15, %ln2_g_15 : !act, !vec -> !act
  %h2_15 = tessel.add %n2_g_15, %ln2_b_15 : !act, !vec -> !act

  %ff1_15 = tessel.einsum %h2_15, %w_ff1_15
      : (!act, !tessel.tensor<[d_model:8, d_ff:8], f32>) -> !ff
  %ff1_b_15 = tessel.add %ff1_15, %b_ff1_15 : !ff, !tessel.tensor<[d_ff:8], f32> -> !ff
  %ff1_act_15 = tessel.gelu %ff1_b_15 : !ff
  %ff2_15 = tessel.einsum %ff1_act_15, %w_ff2_15
      : (!ff, !tessel.tensor<[d_ff:8, d_model:8], f32>) -> !act
  %ff2_b_15 = tessel.add %ff2_15, %b_ff2_15 : !act, !vec -> !act

  // Residual connection.
  %x32 = tessel.add %x31, %ff2_b_15 : !act, !act -> !act

  //===--------------------------------------------------------------------===//
  // Head: final layer norm, logits over the vocabulary, loss
  //===--------------------------------------------------------------------===//

  %nf = tessel.layer_norm %x32 over ["d_model"] epsilon 1.0e-05 : !act
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
