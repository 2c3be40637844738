module {
  func.func @forward(%arg0: !tessel.tensor<[batch:8, seq:8], i32> {tessel.name = "tokens"}, %arg1: !tessel.tensor<[batch:8, seq:8], i32> {tessel.name = "targets"}) -> !tessel.tensor<[], f32> {
    %0 = call @Embedding(%arg0) {tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:8, seq:8], i32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %1 = tessel.parameter "pos_emb" normal scale 2.000000e-02 seed 1794518190 : !tessel.tensor<[seq:8, d_model:32], f32>
    %2 = tessel.add %0, %1 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[seq:8, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %3 = call @Block(%2) {tessel.scope = "block0"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %4 = call @Block(%3) {tessel.scope = "block1"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %5 = call @Block(%4) {tessel.scope = "block2"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %6 = call @Block(%5) {tessel.scope = "block3"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %7 = call @LayerNorm(%6) {tessel.scope = "ln_f"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %8 = call @Embedding_attend(%7) {tessel.name = "logits", tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
    %9 = tessel.softmax_cross_entropy %8, %arg1 over "vocab" : !tessel.tensor<[batch:8, seq:8, vocab:256], f32>, !tessel.tensor<[batch:8, seq:8], i32> -> !tessel.tensor<[batch:8, seq:8], f32>
    %10 = tessel.reduce mean %9 : !tessel.tensor<[batch:8, seq:8], f32> -> !tessel.tensor<[], f32>
    return %10 : !tessel.tensor<[], f32>
  }
  func.func private @Embedding(%arg0: !tessel.tensor<[batch:8, seq:8], i32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32> {
    %0 = tessel.parameter "table" normal scale 2.000000e-02 seed 1251777503 : !tessel.tensor<[vocab:256, d_model:32], f32>
    %1 = tessel.gather %0[%arg0] over "vocab" : !tessel.tensor<[vocab:256, d_model:32], f32>, !tessel.tensor<[batch:8, seq:8], i32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    return %1 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
  }
  func.func private @Block(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32> {
    %0 = call @LayerNorm(%arg0) {tessel.scope = "ln1"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %1 = call @MultiHeadAttention(%0) {tessel.scope = "attn"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %2 = tessel.add %arg0, %1 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[batch:8, seq:8, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %3 = call @LayerNorm(%2) {tessel.scope = "ln2"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %4 = call @MLP(%3) {tessel.scope = "mlp"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %5 = tessel.add %2, %4 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[batch:8, seq:8, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    return %5 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
  }
  func.func private @LayerNorm(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[d_model:32], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[d_model:32], f32>
    %2 = tessel.layer_norm %arg0 over ["d_model"] epsilon 1.000000e-05 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %3 = tessel.mul %2, %0 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %4 = tessel.add %3, %1 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    return %4 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
  }
  func.func private @MultiHeadAttention(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32> {
    %0 = call @Linear(%arg0) {tessel.scope = "q"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32>
    %1 = call @Linear(%arg0) {tessel.scope = "k"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32>
    %2 = tessel.rename %1 : !tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32> -> !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>
    %3 = call @Linear(%arg0) {tessel.scope = "v"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32>
    %4 = tessel.rename %3 : !tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32> -> !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>
    %5 = tessel.einsum %0, %2 : (!tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:2, key:8], f32>
    %6 = tessel.constant 2.500000e-01 : f32 -> !tessel.tensor<[], f32>
    %7 = tessel.mul %5, %6 : !tessel.tensor<[batch:8, seq:8, heads:2, key:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, seq:8, heads:2, key:8], f32>
    %8 = tessel.iota "seq" : !tessel.tensor<[seq:8, key:8], i32>
    %9 = tessel.iota "key" : !tessel.tensor<[seq:8, key:8], i32>
    %10 = tessel.compare ge, %8, %9 : !tessel.tensor<[seq:8, key:8], i32>, !tessel.tensor<[seq:8, key:8], i32> -> !tessel.tensor<[seq:8, key:8], i1>
    %11 = tessel.constant -1.000000e+09 : f32 -> !tessel.tensor<[], f32>
    %12 = tessel.select %10, %7, %11 : !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[batch:8, seq:8, heads:2, key:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, seq:8, heads:2, key:8], f32>
    %13 = tessel.softmax %12 over "key" : !tessel.tensor<[batch:8, seq:8, heads:2, key:8], f32>
    %14 = tessel.einsum %13, %4 : (!tessel.tensor<[batch:8, seq:8, heads:2, key:8], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32>
    %15 = call @Linear_1(%14) {tessel.scope = "o"} : (!tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    return %15 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
  }
  func.func private @Linear(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:32, heads:2, head_dim:16], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[d_model:32, heads:2, head_dim:16], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32>
    return %1 : !tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32>
  }
  func.func private @Linear_1(%arg0: !tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[heads:2, head_dim:16, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:8, heads:2, head_dim:16], f32>, !tessel.tensor<[heads:2, head_dim:16, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    return %1 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
  }
  func.func private @MLP(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32> {
    %0 = call @Linear_2(%arg0) {tessel.scope = "up"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_ff:64], f32>
    %1 = tessel.gelu %0 : !tessel.tensor<[batch:8, seq:8, d_ff:64], f32>
    %2 = call @Linear_3(%1) {tessel.scope = "down"} : (!tessel.tensor<[batch:8, seq:8, d_ff:64], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    return %2 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
  }
  func.func private @Linear_2(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_ff:64], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:32, d_ff:64], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[d_model:32, d_ff:64], f32>) -> !tessel.tensor<[batch:8, seq:8, d_ff:64], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_ff:64], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, seq:8, d_ff:64], f32>, !tessel.tensor<[d_ff:64], f32> -> !tessel.tensor<[batch:8, seq:8, d_ff:64], f32>
    return %3 : !tessel.tensor<[batch:8, seq:8, d_ff:64], f32>
  }
  func.func private @Linear_3(%arg0: !tessel.tensor<[batch:8, seq:8, d_ff:64], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_ff:64, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:8, d_ff:64], f32>, !tessel.tensor<[d_ff:64, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_model:32], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    return %3 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
  }
  func.func private @Embedding_attend(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32> {
    %0 = tessel.parameter "table" normal scale 2.000000e-02 seed 1251777503 : !tessel.tensor<[vocab:256, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[vocab:256, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
    return %1 : !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
  }
  func.func @evaluate(%arg0: !tessel.tensor<[batch:8, seq:8], i32> {tessel.name = "tokens"}, %arg1: !tessel.tensor<[batch:8, seq:8], i32> {tessel.name = "targets"}) -> (!tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "correct"}) {
    %0 = call @Embedding(%arg0) {tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:8, seq:8], i32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %1 = tessel.parameter "pos_emb" normal scale 2.000000e-02 seed 1794518190 : !tessel.tensor<[seq:8, d_model:32], f32>
    %2 = tessel.add %0, %1 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[seq:8, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %3 = call @Block(%2) {tessel.scope = "block0"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %4 = call @Block(%3) {tessel.scope = "block1"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %5 = call @Block(%4) {tessel.scope = "block2"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %6 = call @Block(%5) {tessel.scope = "block3"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %7 = call @LayerNorm(%6) {tessel.scope = "ln_f"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %8 = call @Embedding_attend(%7) {tessel.name = "logits", tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
    %9 = tessel.softmax_cross_entropy %8, %arg1 over "vocab" : !tessel.tensor<[batch:8, seq:8, vocab:256], f32>, !tessel.tensor<[batch:8, seq:8], i32> -> !tessel.tensor<[batch:8, seq:8], f32>
    %10 = tessel.reduce mean %9 : !tessel.tensor<[batch:8, seq:8], f32> -> !tessel.tensor<[], f32>
    %11 = tessel.reduce max %8 : !tessel.tensor<[batch:8, seq:8, vocab:256], f32> -> !tessel.tensor<[batch:8, seq:8], f32>
    %12 = tessel.compare ge, %8, %11 : !tessel.tensor<[batch:8, seq:8, vocab:256], f32>, !tessel.tensor<[batch:8, seq:8], f32> -> !tessel.tensor<[batch:8, seq:8, vocab:256], i1>
    %13 = tessel.one_hot %arg1 as "vocab" : !tessel.tensor<[batch:8, seq:8], i32> -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
    %14 = tessel.constant 0.000000e+00 : f32 -> !tessel.tensor<[], f32>
    %15 = tessel.select %12, %13, %14 : !tessel.tensor<[batch:8, seq:8, vocab:256], i1>, !tessel.tensor<[batch:8, seq:8, vocab:256], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
    %16 = tessel.reduce sum %15 : !tessel.tensor<[batch:8, seq:8, vocab:256], f32> -> !tessel.tensor<[], f32>
    return %10, %16 : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
  }
  func.func @decode(%arg0: !tessel.tensor<[batch:8], i32> {tessel.name = "token"}, %arg1: !tessel.tensor<[], i32> {tessel.name = "position"}, %arg2: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block0.attn.k_cache"}, %arg3: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block0.attn.v_cache"}, %arg4: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block1.attn.k_cache"}, %arg5: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block1.attn.v_cache"}, %arg6: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block2.attn.k_cache"}, %arg7: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block2.attn.v_cache"}, %arg8: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block3.attn.k_cache"}, %arg9: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block3.attn.v_cache"}) -> (!tessel.tensor<[batch:8, vocab:256], f32> {tessel.name = "logits"}, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block0.attn.k_cache"}, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block0.attn.v_cache"}, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block1.attn.k_cache"}, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block1.attn.v_cache"}, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block2.attn.k_cache"}, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block2.attn.v_cache"}, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block3.attn.k_cache"}, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32> {tessel.name = "block3.attn.v_cache"}) {
    %0 = call @Embedding_1(%arg0) {tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:8], i32>) -> !tessel.tensor<[batch:8, d_model:32], f32>
    %1 = tessel.parameter "pos_emb" normal scale 2.000000e-02 seed 1794518190 : !tessel.tensor<[seq:8, d_model:32], f32>
    %2 = tessel.gather %1[%arg1] over "seq" : !tessel.tensor<[seq:8, d_model:32], f32>, !tessel.tensor<[], i32> -> !tessel.tensor<[d_model:32], f32>
    %3 = tessel.add %0, %2 : !tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, d_model:32], f32>
    %4:3 = call @BlockStep(%3, %arg1, %arg2, %arg3) {tessel.scope = "block0"} : (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[], i32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>)
    %5:3 = call @BlockStep(%4#0, %arg1, %arg4, %arg5) {tessel.scope = "block1"} : (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[], i32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>)
    %6:3 = call @BlockStep(%5#0, %arg1, %arg6, %arg7) {tessel.scope = "block2"} : (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[], i32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>)
    %7:3 = call @BlockStep(%6#0, %arg1, %arg8, %arg9) {tessel.scope = "block3"} : (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[], i32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>)
    %8 = call @LayerNorm_1(%7#0) {tessel.scope = "ln_f"} : (!tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32>
    %9 = call @Embedding_attend_1(%8) {tessel.name = "logits", tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, vocab:256], f32>
    return %9, %4#1, %4#2, %5#1, %5#2, %6#1, %6#2, %7#1, %7#2 : !tessel.tensor<[batch:8, vocab:256], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>
  }
  func.func private @Embedding_1(%arg0: !tessel.tensor<[batch:8], i32>) -> !tessel.tensor<[batch:8, d_model:32], f32> {
    %0 = tessel.parameter "table" normal scale 2.000000e-02 seed 1251777503 : !tessel.tensor<[vocab:256, d_model:32], f32>
    %1 = tessel.gather %0[%arg0] over "vocab" : !tessel.tensor<[vocab:256, d_model:32], f32>, !tessel.tensor<[batch:8], i32> -> !tessel.tensor<[batch:8, d_model:32], f32>
    return %1 : !tessel.tensor<[batch:8, d_model:32], f32>
  }
  func.func private @BlockStep(%arg0: !tessel.tensor<[batch:8, d_model:32], f32>, %arg1: !tessel.tensor<[], i32>, %arg2: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, %arg3: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) {
    %0 = call @LayerNorm_1(%arg0) {tessel.scope = "ln1"} : (!tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32>
    %1:3 = call @MultiHeadAttention_step(%0, %arg1, %arg2, %arg3) {tessel.scope = "attn"} : (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[], i32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>)
    %2 = tessel.add %arg0, %1#0 : !tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, d_model:32], f32> -> !tessel.tensor<[batch:8, d_model:32], f32>
    %3 = call @LayerNorm_1(%2) {tessel.scope = "ln2"} : (!tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32>
    %4 = call @MLP_1(%3) {tessel.scope = "mlp"} : (!tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32>
    %5 = tessel.add %2, %4 : !tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, d_model:32], f32> -> !tessel.tensor<[batch:8, d_model:32], f32>
    return %5, %1#1, %1#2 : !tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>
  }
  func.func private @LayerNorm_1(%arg0: !tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[d_model:32], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[d_model:32], f32>
    %2 = tessel.layer_norm %arg0 over ["d_model"] epsilon 1.000000e-05 : !tessel.tensor<[batch:8, d_model:32], f32>
    %3 = tessel.mul %2, %0 : !tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, d_model:32], f32>
    %4 = tessel.add %3, %1 : !tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, d_model:32], f32>
    return %4 : !tessel.tensor<[batch:8, d_model:32], f32>
  }
  func.func private @MultiHeadAttention_step(%arg0: !tessel.tensor<[batch:8, d_model:32], f32>, %arg1: !tessel.tensor<[], i32>, %arg2: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, %arg3: !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) {
    %0 = call @Linear_4(%arg0) {tessel.scope = "q"} : (!tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, heads:2, head_dim:16], f32>
    %1 = call @Linear_4(%arg0) {tessel.scope = "k"} : (!tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, heads:2, head_dim:16], f32>
    %2 = call @Linear_4(%arg0) {tessel.scope = "v"} : (!tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, heads:2, head_dim:16], f32>
    %3 = tessel.iota "key" : !tessel.tensor<[key:8], i32>
    %4 = tessel.compare ne, %3, %arg1 : !tessel.tensor<[key:8], i32>, !tessel.tensor<[], i32> -> !tessel.tensor<[key:8], i1>
    %5 = tessel.select %4, %arg2, %1 : !tessel.tensor<[key:8], i1>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, heads:2, head_dim:16], f32> -> !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>
    %6 = tessel.select %4, %arg3, %2 : !tessel.tensor<[key:8], i1>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, heads:2, head_dim:16], f32> -> !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>
    %7 = tessel.einsum %0, %5 : (!tessel.tensor<[batch:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> !tessel.tensor<[batch:8, heads:2, key:8], f32>
    %8 = tessel.constant 2.500000e-01 : f32 -> !tessel.tensor<[], f32>
    %9 = tessel.mul %7, %8 : !tessel.tensor<[batch:8, heads:2, key:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, heads:2, key:8], f32>
    %10 = tessel.compare le, %3, %arg1 : !tessel.tensor<[key:8], i32>, !tessel.tensor<[], i32> -> !tessel.tensor<[key:8], i1>
    %11 = tessel.constant -1.000000e+09 : f32 -> !tessel.tensor<[], f32>
    %12 = tessel.select %10, %9, %11 : !tessel.tensor<[key:8], i1>, !tessel.tensor<[batch:8, heads:2, key:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, heads:2, key:8], f32>
    %13 = tessel.softmax %12 over "key" : !tessel.tensor<[batch:8, heads:2, key:8], f32>
    %14 = tessel.einsum %13, %6 : (!tessel.tensor<[batch:8, heads:2, key:8], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>) -> !tessel.tensor<[batch:8, heads:2, head_dim:16], f32>
    %15 = call @Linear_5(%14) {tessel.scope = "o"} : (!tessel.tensor<[batch:8, heads:2, head_dim:16], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32>
    return %15, %5, %6 : !tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>, !tessel.tensor<[batch:8, key:8, heads:2, head_dim:16], f32>
  }
  func.func private @Linear_4(%arg0: !tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, heads:2, head_dim:16], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:32, heads:2, head_dim:16], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[d_model:32, heads:2, head_dim:16], f32>) -> !tessel.tensor<[batch:8, heads:2, head_dim:16], f32>
    return %1 : !tessel.tensor<[batch:8, heads:2, head_dim:16], f32>
  }
  func.func private @Linear_5(%arg0: !tessel.tensor<[batch:8, heads:2, head_dim:16], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[heads:2, head_dim:16, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, heads:2, head_dim:16], f32>, !tessel.tensor<[heads:2, head_dim:16, d_model:32], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32>
    return %1 : !tessel.tensor<[batch:8, d_model:32], f32>
  }
  func.func private @MLP_1(%arg0: !tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32> {
    %0 = call @Linear_6(%arg0) {tessel.scope = "up"} : (!tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, d_ff:64], f32>
    %1 = tessel.gelu %0 : !tessel.tensor<[batch:8, d_ff:64], f32>
    %2 = call @Linear_7(%1) {tessel.scope = "down"} : (!tessel.tensor<[batch:8, d_ff:64], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32>
    return %2 : !tessel.tensor<[batch:8, d_model:32], f32>
  }
  func.func private @Linear_6(%arg0: !tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, d_ff:64], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:32, d_ff:64], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[d_model:32, d_ff:64], f32>) -> !tessel.tensor<[batch:8, d_ff:64], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_ff:64], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, d_ff:64], f32>, !tessel.tensor<[d_ff:64], f32> -> !tessel.tensor<[batch:8, d_ff:64], f32>
    return %3 : !tessel.tensor<[batch:8, d_ff:64], f32>
  }
  func.func private @Linear_7(%arg0: !tessel.tensor<[batch:8, d_ff:64], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_ff:64, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, d_ff:64], f32>, !tessel.tensor<[d_ff:64, d_model:32], f32>) -> !tessel.tensor<[batch:8, d_model:32], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_model:32], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[d_model:32], f32> -> !tessel.tensor<[batch:8, d_model:32], f32>
    return %3 : !tessel.tensor<[batch:8, d_model:32], f32>
  }
  func.func private @Embedding_attend_1(%arg0: !tessel.tensor<[batch:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, vocab:256], f32> {
    %0 = tessel.parameter "table" normal scale 2.000000e-02 seed 1251777503 : !tessel.tensor<[vocab:256, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, d_model:32], f32>, !tessel.tensor<[vocab:256, d_model:32], f32>) -> !tessel.tensor<[batch:8, vocab:256], f32>
    return %1 : !tessel.tensor<[batch:8, vocab:256], f32>
  }
}
