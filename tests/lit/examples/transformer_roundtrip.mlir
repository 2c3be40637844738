// The Transformer example parses, verifies and round-trips through
// tessel-opt; the key steps of the block are checked in order.
// RUN: tessel-opt %examples/transformer/transformer.mlir | tessel-opt | FileCheck %s
// RUN: tessel-opt -mlir-print-op-generic %examples/transformer/transformer.mlir | tessel-opt | FileCheck %s

// CHECK-LABEL: func.func @forward
// CHECK-SAME: (%[[TOKENS:.*]]: !tessel.tensor<[batch:4, seq:16], i32> {tessel.name = "tokens"}, %[[TARGETS:.*]]: !tessel.tensor<[batch:4, seq:16], i32> {tessel.name = "targets"}) -> !tessel.tensor<[], f32>

// Embeddings.
// CHECK: %[[TOK_EMB:.*]] = tessel.parameter "tok_emb" normal scale 2.000000e-02 seed 1 : !tessel.tensor<[vocab:256, d_model:64], f32>
// CHECK: %[[POS_EMB:.*]] = tessel.parameter "pos_emb" normal {{.*}} : !tessel.tensor<[seq:16, d_model:64], f32>
// CHECK: %[[WK:.*]] = tessel.parameter "attn_wk" normal {{.*}} : !tessel.tensor<[d_model:64, heads:4, head_dim:16], f32>
// CHECK: %[[WV:.*]] = tessel.parameter "attn_wv"
// CHECK: %[[LN1_G:.*]] = tessel.parameter "ln1_gamma" ones
// CHECK: %[[LN1_B:.*]] = tessel.parameter "ln1_beta" zeros
// CHECK: %[[UNEMBED:.*]] = tessel.parameter "unembed" normal {{.*}} : !tessel.tensor<[d_model:64, vocab:256], f32>
// CHECK: %[[X_TOK:.*]] = tessel.gather %[[TOK_EMB]][%[[TOKENS]]] over "vocab" : !tessel.tensor<[vocab:256, d_model:64], f32>, !tessel.tensor<[batch:4, seq:16], i32> -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
// CHECK: %[[X0:.*]] = tessel.add %[[X_TOK]], %[[POS_EMB]]

// Pre-LN and attention.
// CHECK: %[[N1:.*]] = tessel.layer_norm %[[X0]] over ["d_model"] epsilon 1.000000e-05
// CHECK: %[[N1_G:.*]] = tessel.mul %[[N1]], %[[LN1_G]]
// CHECK: %[[H1:.*]] = tessel.add %[[N1_G]], %[[LN1_B]]
// CHECK: %[[Q:.*]] = tessel.einsum %[[H1]], %{{.*}} -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>
// CHECK: %[[K_SEQ:.*]] = tessel.einsum %[[H1]], %[[WK]]
// CHECK: %[[V_SEQ:.*]] = tessel.einsum %[[H1]], %[[WV]]
// CHECK: %[[K:.*]] = tessel.rename %[[K_SEQ]] : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>
// CHECK: %[[V:.*]] = tessel.rename %[[V_SEQ]]
// CHECK: %[[QK:.*]] = tessel.einsum %[[Q]], %[[K]] : {{.*}} -> !tessel.tensor<[batch:4, heads:4, seq:16, key:16], f32>
// CHECK: %[[SCALE:.*]] = tessel.constant 2.500000e-01 : f32 -> !tessel.tensor<[], f32>
// CHECK: %[[SCALED:.*]] = tessel.mul %[[QK]], %[[SCALE]]
// CHECK: %[[QPOS:.*]] = tessel.iota "seq" : !tessel.tensor<[seq:16, key:16], i32>
// CHECK: %[[KPOS:.*]] = tessel.iota "key" : !tessel.tensor<[seq:16, key:16], i32>
// CHECK: %[[CAUSAL:.*]] = tessel.compare ge, %[[QPOS]], %[[KPOS]] : {{.*}} -> !tessel.tensor<[seq:16, key:16], i1>
// CHECK: %[[NEG:.*]] = tessel.constant -1.000000e+09 : f32 -> !tessel.tensor<[], f32>
// CHECK: %[[MASKED:.*]] = tessel.select %[[CAUSAL]], %[[SCALED]], %[[NEG]]
// CHECK: %[[PROBS:.*]] = tessel.softmax %[[MASKED]] over "key" : !tessel.tensor<[batch:4, heads:4, seq:16, key:16], f32>
// CHECK: %[[ATTN:.*]] = tessel.einsum %[[PROBS]], %[[V]]
// CHECK: %[[ATTN_OUT:.*]] = tessel.einsum %[[ATTN]], %{{.*}} -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
// CHECK: %[[X1:.*]] = tessel.add %[[X0]], %[[ATTN_OUT]]

// MLP.
// CHECK: %[[N2:.*]] = tessel.layer_norm %[[X1]] over ["d_model"]
// CHECK: tessel.einsum {{.*}} -> !tessel.tensor<[batch:4, seq:16, d_ff:256], f32>
// CHECK: %[[GELU:.*]] = tessel.gelu %{{.*}} : !tessel.tensor<[batch:4, seq:16, d_ff:256], f32>
// CHECK: tessel.einsum %[[GELU]], %{{.*}} -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
// CHECK: %[[X2:.*]] = tessel.add %[[X1]], %{{.*}}

// Head and loss.
// CHECK: tessel.layer_norm %[[X2]] over ["d_model"]
// CHECK: %[[LOGITS:.*]] = tessel.einsum %{{.*}}, %[[UNEMBED]] {tessel.name = "logits"} : {{.*}} -> !tessel.tensor<[batch:4, seq:16, vocab:256], f32>
// CHECK: %[[LOSSES:.*]] = tessel.softmax_cross_entropy %[[LOGITS]], %[[TARGETS]] over "vocab" : {{.*}} -> !tessel.tensor<[batch:4, seq:16], f32>
// CHECK: %[[LOSS:.*]] = tessel.reduce mean %[[LOSSES]] : !tessel.tensor<[batch:4, seq:16], f32> -> !tessel.tensor<[], f32>
// CHECK: return %[[LOSS]] : !tessel.tensor<[], f32>
