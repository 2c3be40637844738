module {
  func.func @forward(%arg0: !tessel.tensor<[batch:8, seq:8], i32> {tessel.name = "tokens"}, %arg1: !tessel.tensor<[batch:8, seq:8], i32> {tessel.name = "targets"}) -> !tessel.tensor<[], f32> {
    %0 = call @Embedding(%arg0) {tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:8, seq:8], i32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %1 = tessel.parameter "pos_emb" normal scale 2.000000e-02 seed 1794518190 : !tessel.tensor<[seq:8, d_model:32], f32>
    %2 = tessel.add %0, %1 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[seq:8, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %3 = call @Block(%2) {tessel.scope = "block0"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %4:2 = call @Block_1(%3) {tessel.scope = "block1"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[], f32>)
    %5 = call @Block(%4#0) {tessel.scope = "block2"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %6:2 = call @Block_1(%5) {tessel.scope = "block3"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[], f32>)
    %7 = call @LayerNorm(%6#0) {tessel.scope = "ln_f"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
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
    %0 = call @Linear(%arg0) {tessel.scope = "q"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32>
    %1 = call @Linear(%arg0) {tessel.scope = "k"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32>
    %2 = tessel.rename %1 : !tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:8, key:8, heads:4, head_dim:8], f32>
    %3 = call @Linear(%arg0) {tessel.scope = "v"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32>
    %4 = tessel.rename %3 : !tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:8, key:8, heads:4, head_dim:8], f32>
    %5 = tessel.einsum %0, %2 : (!tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:8, key:8, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:4, key:8], f32>
    %6 = tessel.constant 0.353553385 : f32 -> !tessel.tensor<[], f32>
    %7 = tessel.mul %5, %6 : !tessel.tensor<[batch:8, seq:8, heads:4, key:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, seq:8, heads:4, key:8], f32>
    %8 = tessel.iota "seq" : !tessel.tensor<[seq:8, key:8], i32>
    %9 = tessel.iota "key" : !tessel.tensor<[seq:8, key:8], i32>
    %10 = tessel.compare ge, %8, %9 : !tessel.tensor<[seq:8, key:8], i32>, !tessel.tensor<[seq:8, key:8], i32> -> !tessel.tensor<[seq:8, key:8], i1>
    %11 = tessel.constant -1.000000e+09 : f32 -> !tessel.tensor<[], f32>
    %12 = tessel.select %10, %7, %11 : !tessel.tensor<[seq:8, key:8], i1>, !tessel.tensor<[batch:8, seq:8, heads:4, key:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, seq:8, heads:4, key:8], f32>
    %13 = tessel.softmax %12 over "key" : !tessel.tensor<[batch:8, seq:8, heads:4, key:8], f32>
    %14 = tessel.einsum %13, %4 : (!tessel.tensor<[batch:8, seq:8, heads:4, key:8], f32>, !tessel.tensor<[batch:8, key:8, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32>
    %15 = call @Linear_1(%14) {tessel.scope = "o"} : (!tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    return %15 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
  }
  func.func private @Linear(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:32, heads:4, head_dim:8], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[d_model:32, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32>
    return %1 : !tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32>
  }
  func.func private @Linear_1(%arg0: !tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[heads:4, head_dim:8, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:8, heads:4, head_dim:8], f32>, !tessel.tensor<[heads:4, head_dim:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
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
  func.func private @Block_1(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[], f32>) {
    %0 = call @LayerNorm(%arg0) {tessel.scope = "ln1"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %1 = call @MultiHeadAttention(%0) {tessel.scope = "attn"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %2 = tessel.add %arg0, %1 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[batch:8, seq:8, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %3 = call @LayerNorm(%2) {tessel.scope = "ln2"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    %4:2 = call @MixtureOfExperts(%3) {tessel.scope = "moe"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[], f32>)
    %5 = tessel.add %2, %4#0 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[batch:8, seq:8, d_model:32], f32> -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    return %5, %4#1 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[], f32>
  }
  func.func private @MixtureOfExperts(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[], f32>) {
    %0:3 = call @Router(%arg0) {tessel.scope = "router"} : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> (!tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[], f32>)
    %1 = tessel.einsum %0#0, %arg0 : (!tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[route:4, batch:8, capacity:5, d_model:32], f32>
    %2 = tessel.reshape %1 : !tessel.tensor<[route:4, batch:8, capacity:5, d_model:32], f32> -> !tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32>
    %3 = call @Experts(%2) {tessel.scope = "experts"} : (!tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32>) -> !tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32>
    %4 = tessel.reshape %3 : !tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32> -> !tessel.tensor<[route:4, batch:8, capacity:5, d_model:32], f32>
    %5 = tessel.einsum %0#1, %4 : (!tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[route:4, batch:8, capacity:5, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, d_model:32], f32>
    return %5, %0#2 : !tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[], f32>
  }
  func.func private @Router(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> (!tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[], f32>) {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:32, route:4], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[d_model:32, route:4], f32>) -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %2 = tessel.softmax %1 over "route" : !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %3 = tessel.constant 5.000000e+00 : f32 -> !tessel.tensor<[], f32>
    %4 = tessel.argmax %2 over "route" : !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8], i32>
    %5 = tessel.one_hot %4 as "route" : !tessel.tensor<[batch:8, seq:8], i32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %6 = tessel.mul %2, %5 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %7 = tessel.reduce sum %6 : !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8], f32>
    %8 = tessel.constant 1.000000e+00 : f32 -> !tessel.tensor<[], f32>
    %9 = tessel.sub %8, %5 : !tessel.tensor<[], f32>, !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %10 = tessel.mul %2, %9 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %11 = tessel.cumsum %5 over "seq" : !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %12 = tessel.constant 1.000000e+00 : f32 -> !tessel.tensor<[], f32>
    %13 = tessel.sub %11, %12 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %14 = tessel.compare lt, %13, %3 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], i1>
    %15 = tessel.cast %14 : !tessel.tensor<[batch:8, seq:8, route:4], i1> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %16 = tessel.mul %5, %15 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %17 = tessel.reduce sum %16 : !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, route:4], f32>
    %18 = tessel.mul %13, %16 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %19 = tessel.reduce sum %18 : !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8], f32>
    %20 = tessel.cast %19 : !tessel.tensor<[batch:8, seq:8], f32> -> !tessel.tensor<[batch:8, seq:8], i32>
    %21 = tessel.one_hot %20 as "capacity" : !tessel.tensor<[batch:8, seq:8], i32> -> !tessel.tensor<[batch:8, seq:8, capacity:5], f32>
    %22 = tessel.mul %16, %21 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, seq:8, capacity:5], f32> -> !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>
    %23 = tessel.argmax %10 over "route" : !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8], i32>
    %24 = tessel.one_hot %23 as "route" : !tessel.tensor<[batch:8, seq:8], i32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %25 = tessel.mul %2, %24 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %26 = tessel.reduce sum %25 : !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8], f32>
    %27 = tessel.constant 1.000000e+00 : f32 -> !tessel.tensor<[], f32>
    %28 = tessel.sub %27, %24 : !tessel.tensor<[], f32>, !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %29 = tessel.mul %10, %28 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %30 = tessel.cumsum %24 over "seq" : !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %31 = tessel.constant 1.000000e+00 : f32 -> !tessel.tensor<[], f32>
    %32 = tessel.sub %30, %31 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %33 = tessel.add %32, %17 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %34 = tessel.compare lt, %33, %3 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], i1>
    %35 = tessel.cast %34 : !tessel.tensor<[batch:8, seq:8, route:4], i1> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %36 = tessel.mul %24, %35 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %37 = tessel.reduce sum %36 : !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, route:4], f32>
    %38 = tessel.add %17, %37 : !tessel.tensor<[batch:8, route:4], f32>, !tessel.tensor<[batch:8, route:4], f32> -> !tessel.tensor<[batch:8, route:4], f32>
    %39 = tessel.mul %33, %36 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8, route:4], f32>
    %40 = tessel.reduce sum %39 : !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[batch:8, seq:8], f32>
    %41 = tessel.cast %40 : !tessel.tensor<[batch:8, seq:8], f32> -> !tessel.tensor<[batch:8, seq:8], i32>
    %42 = tessel.one_hot %41 as "capacity" : !tessel.tensor<[batch:8, seq:8], i32> -> !tessel.tensor<[batch:8, seq:8, capacity:5], f32>
    %43 = tessel.mul %36, %42 : !tessel.tensor<[batch:8, seq:8, route:4], f32>, !tessel.tensor<[batch:8, seq:8, capacity:5], f32> -> !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>
    %44 = tessel.add %7, %26 : !tessel.tensor<[batch:8, seq:8], f32>, !tessel.tensor<[batch:8, seq:8], f32> -> !tessel.tensor<[batch:8, seq:8], f32>
    %45 = tessel.div %7, %44 : !tessel.tensor<[batch:8, seq:8], f32>, !tessel.tensor<[batch:8, seq:8], f32> -> !tessel.tensor<[batch:8, seq:8], f32>
    %46 = tessel.mul %22, %45 : !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[batch:8, seq:8], f32> -> !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>
    %47 = tessel.add %22, %43 : !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32> -> !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>
    %48 = tessel.div %26, %44 : !tessel.tensor<[batch:8, seq:8], f32>, !tessel.tensor<[batch:8, seq:8], f32> -> !tessel.tensor<[batch:8, seq:8], f32>
    %49 = tessel.mul %43, %48 : !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[batch:8, seq:8], f32> -> !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>
    %50 = tessel.add %46, %49 : !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32> -> !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>
    %51 = tessel.reduce mean %5 : !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[route:4], f32>
    %52 = tessel.reduce mean %2 : !tessel.tensor<[batch:8, seq:8, route:4], f32> -> !tessel.tensor<[route:4], f32>
    %53 = tessel.mul %51, %52 : !tessel.tensor<[route:4], f32>, !tessel.tensor<[route:4], f32> -> !tessel.tensor<[route:4], f32>
    %54 = tessel.reduce sum %53 : !tessel.tensor<[route:4], f32> -> !tessel.tensor<[], f32>
    %55 = tessel.constant 4.000000e+00 : f32 -> !tessel.tensor<[], f32>
    %56 = tessel.mul %54, %55 : !tessel.tensor<[], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[], f32>
    return %47, %50, %56 : !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[batch:8, seq:8, route:4, capacity:5], f32>, !tessel.tensor<[], f32>
  }
  func.func private @Experts(%arg0: !tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32>) -> !tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32> {
    %0 = tessel.parameter "w1" normal scale 0.17677669529663687 seed 273102853 : !tessel.tensor<[experts:4, d_model:32, d_ff:64], f32>
    %1 = tessel.parameter "b1" zeros scale 1.000000e+00 seed 204219580 : !tessel.tensor<[experts:4, d_ff:64], f32>
    %2 = tessel.parameter "w2" normal scale 1.250000e-01 seed 222769996 : !tessel.tensor<[experts:4, d_ff:64, d_model:32], f32>
    %3 = tessel.parameter "b2" zeros scale 1.000000e+00 seed 254552437 : !tessel.tensor<[experts:4, d_model:32], f32>
    %4 = tessel.einsum %arg0, %0 : (!tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32>, !tessel.tensor<[experts:4, d_model:32, d_ff:64], f32>) -> !tessel.tensor<[experts:4, group:8, capacity:5, d_ff:64], f32>
    %5 = tessel.add %4, %1 : !tessel.tensor<[experts:4, group:8, capacity:5, d_ff:64], f32>, !tessel.tensor<[experts:4, d_ff:64], f32> -> !tessel.tensor<[experts:4, group:8, capacity:5, d_ff:64], f32>
    %6 = tessel.gelu %5 : !tessel.tensor<[experts:4, group:8, capacity:5, d_ff:64], f32>
    %7 = tessel.einsum %6, %2 : (!tessel.tensor<[experts:4, group:8, capacity:5, d_ff:64], f32>, !tessel.tensor<[experts:4, d_ff:64, d_model:32], f32>) -> !tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32>
    %8 = tessel.add %7, %3 : !tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32>, !tessel.tensor<[experts:4, d_model:32], f32> -> !tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32>
    return %8 : !tessel.tensor<[experts:4, group:8, capacity:5, d_model:32], f32>
  }
  func.func private @Embedding_attend(%arg0: !tessel.tensor<[batch:8, seq:8, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32> {
    %0 = tessel.parameter "table" normal scale 2.000000e-02 seed 1251777503 : !tessel.tensor<[vocab:256, d_model:32], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:8, seq:8, d_model:32], f32>, !tessel.tensor<[vocab:256, d_model:32], f32>) -> !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
    return %1 : !tessel.tensor<[batch:8, seq:8, vocab:256], f32>
  }
}
