module {
  func.func @forward(%arg0: !tessel.tensor<[batch:4, seq:16], i32> {tessel.name = "tokens"}, %arg1: !tessel.tensor<[batch:4, seq:16], i32> {tessel.name = "targets"}, %arg2: !tessel.tensor<[], i64> {tessel.name = "dropout_step"}) -> !tessel.tensor<[], f32> {
    %0 = call @Embedding(%arg0) {tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:4, seq:16], i32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %1 = tessel.dropout %0 step %arg2 rate 1.000000e-01 seed 1 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[], i64>
    %2 = call @RegularizedBlock(%1, %arg2) {tessel.scope = "block0"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[], i64>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %3 = call @RegularizedBlock(%2, %arg2) {tessel.scope = "block1"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[], i64>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %4 = call @LayerNorm(%3) {tessel.scope = "ln_f"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %5 = call @Embedding_attend(%4) {tessel.name = "logits", tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, vocab:256], f32>
    %6 = tessel.softmax_cross_entropy %5, %arg1 over "vocab" : !tessel.tensor<[batch:4, seq:16, vocab:256], f32>, !tessel.tensor<[batch:4, seq:16], i32> -> !tessel.tensor<[batch:4, seq:16], f32>
    %7 = tessel.reduce mean %6 : !tessel.tensor<[batch:4, seq:16], f32> -> !tessel.tensor<[], f32>
    return %7 : !tessel.tensor<[], f32>
  }
  func.func private @Embedding(%arg0: !tessel.tensor<[batch:4, seq:16], i32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32> {
    %0 = tessel.parameter "table" normal scale 2.000000e-02 seed 1251777503 : !tessel.tensor<[vocab:256, d_model:64], f32>
    %1 = tessel.gather %0[%arg0] over "vocab" : !tessel.tensor<[vocab:256, d_model:64], f32>, !tessel.tensor<[batch:4, seq:16], i32> -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    return %1 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  }
  func.func private @RegularizedBlock(%arg0: !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, %arg1: !tessel.tensor<[], i64>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32> {
    %0 = call @LayerNorm(%arg0) {tessel.scope = "ln1"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %1 = call @RotaryAttention(%0) {tessel.scope = "attn"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %2 = tessel.dropout %1 step %arg1 rate 1.000000e-01 seed 1 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[], i64>
    %3 = tessel.add %arg0, %2 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[batch:4, seq:16, d_model:64], f32> -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %4 = call @LayerNorm(%3) {tessel.scope = "ln2"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %5 = call @MLP(%4) {tessel.scope = "mlp"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %6 = tessel.dropout %5 step %arg1 rate 1.000000e-01 seed 2 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[], i64>
    %7 = tessel.add %3, %6 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[batch:4, seq:16, d_model:64], f32> -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    return %7 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  }
  func.func private @LayerNorm(%arg0: !tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[d_model:64], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[d_model:64], f32>
    %2 = tessel.layer_norm %arg0 over ["d_model"] epsilon 1.000000e-05 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %3 = tessel.mul %2, %0 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[d_model:64], f32> -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %4 = tessel.add %3, %1 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[d_model:64], f32> -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    return %4 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  }
  func.func private @RotaryAttention(%arg0: !tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32> {
    %0 = tessel.iota "head_dim" : !tessel.tensor<[head_dim:8], i32>
    %1 = tessel.cast %0 : !tessel.tensor<[head_dim:8], i32> -> !tessel.tensor<[head_dim:8], f32>
    %2 = tessel.constant -1.15129256 : f32 -> !tessel.tensor<[], f32>
    %3 = tessel.mul %1, %2 : !tessel.tensor<[head_dim:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[head_dim:8], f32>
    %4 = tessel.exp %3 : !tessel.tensor<[head_dim:8], f32>
    %5 = tessel.iota "seq" : !tessel.tensor<[seq:16, head_dim:8], i32>
    %6 = tessel.cast %5 : !tessel.tensor<[seq:16, head_dim:8], i32> -> !tessel.tensor<[seq:16, head_dim:8], f32>
    %7 = tessel.mul %6, %4 : !tessel.tensor<[seq:16, head_dim:8], f32>, !tessel.tensor<[head_dim:8], f32> -> !tessel.tensor<[seq:16, head_dim:8], f32>
    %8 = tessel.rename %7 : !tessel.tensor<[seq:16, head_dim:8], f32> -> !tessel.tensor<[key:16, head_dim:8], f32>
    %9 = call @Linear(%arg0) {tessel.scope = "q"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>
    %10 = tessel.slice %9 {dims = ["head_dim"], starts = array<i64: 0>} : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>
    %11 = tessel.slice %9 {dims = ["head_dim"], starts = array<i64: 8>} : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>
    %12 = tessel.cos %7 : !tessel.tensor<[seq:16, head_dim:8], f32>
    %13 = tessel.sin %7 : !tessel.tensor<[seq:16, head_dim:8], f32>
    %14 = tessel.mul %10, %12 : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>, !tessel.tensor<[seq:16, head_dim:8], f32> -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>
    %15 = tessel.mul %11, %13 : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>, !tessel.tensor<[seq:16, head_dim:8], f32> -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>
    %16 = tessel.sub %14, %15 : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>
    %17 = tessel.mul %10, %13 : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>, !tessel.tensor<[seq:16, head_dim:8], f32> -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>
    %18 = tessel.mul %11, %12 : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>, !tessel.tensor<[seq:16, head_dim:8], f32> -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>
    %19 = tessel.add %17, %18 : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>
    %20 = tessel.concat %16, %19 over "head_dim" : (!tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>
    %21 = call @Linear(%arg0) {tessel.scope = "k"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>
    %22 = tessel.rename %21 : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>
    %23 = tessel.slice %22 {dims = ["head_dim"], starts = array<i64: 0>} : !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>
    %24 = tessel.slice %22 {dims = ["head_dim"], starts = array<i64: 8>} : !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>
    %25 = tessel.cos %8 : !tessel.tensor<[key:16, head_dim:8], f32>
    %26 = tessel.sin %8 : !tessel.tensor<[key:16, head_dim:8], f32>
    %27 = tessel.mul %23, %25 : !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>, !tessel.tensor<[key:16, head_dim:8], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>
    %28 = tessel.mul %24, %26 : !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>, !tessel.tensor<[key:16, head_dim:8], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>
    %29 = tessel.sub %27, %28 : !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>
    %30 = tessel.mul %23, %26 : !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>, !tessel.tensor<[key:16, head_dim:8], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>
    %31 = tessel.mul %24, %25 : !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>, !tessel.tensor<[key:16, head_dim:8], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>
    %32 = tessel.add %30, %31 : !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>
    %33 = tessel.concat %29, %32 over "head_dim" : (!tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>
    %34 = call @Linear(%arg0) {tessel.scope = "v"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>
    %35 = tessel.rename %34 : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>
    %36 = tessel.einsum %20, %33 : (!tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) -> !tessel.tensor<[batch:4, seq:16, heads:4, key:16], f32>
    %37 = tessel.constant 2.500000e-01 : f32 -> !tessel.tensor<[], f32>
    %38 = tessel.mul %36, %37 : !tessel.tensor<[batch:4, seq:16, heads:4, key:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:4, seq:16, heads:4, key:16], f32>
    %39 = tessel.iota "seq" : !tessel.tensor<[seq:16, key:16], i32>
    %40 = tessel.iota "key" : !tessel.tensor<[seq:16, key:16], i32>
    %41 = tessel.compare ge, %39, %40 : !tessel.tensor<[seq:16, key:16], i32>, !tessel.tensor<[seq:16, key:16], i32> -> !tessel.tensor<[seq:16, key:16], i1>
    %42 = tessel.constant -1.000000e+09 : f32 -> !tessel.tensor<[], f32>
    %43 = tessel.select %41, %38, %42 : !tessel.tensor<[seq:16, key:16], i1>, !tessel.tensor<[batch:4, seq:16, heads:4, key:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:4, seq:16, heads:4, key:16], f32>
    %44 = tessel.softmax %43 over "key" : !tessel.tensor<[batch:4, seq:16, heads:4, key:16], f32>
    %45 = tessel.einsum %44, %35 : (!tessel.tensor<[batch:4, seq:16, heads:4, key:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>
    %46 = call @Linear_1(%45) {tessel.scope = "o"} : (!tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    return %46 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  }
  func.func private @Linear(%arg0: !tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:64, heads:4, head_dim:16], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[d_model:64, heads:4, head_dim:16], f32>) -> !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>
    return %1 : !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>
  }
  func.func private @Linear_1(%arg0: !tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[heads:4, head_dim:16, d_model:64], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:4, seq:16, heads:4, head_dim:16], f32>, !tessel.tensor<[heads:4, head_dim:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    return %1 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  }
  func.func private @MLP(%arg0: !tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32> {
    %0 = call @Linear_2(%arg0) {tessel.scope = "up"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_ff:256], f32>
    %1 = tessel.gelu %0 : !tessel.tensor<[batch:4, seq:16, d_ff:256], f32>
    %2 = call @Linear_3(%1) {tessel.scope = "down"} : (!tessel.tensor<[batch:4, seq:16, d_ff:256], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    return %2 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  }
  func.func private @Linear_2(%arg0: !tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_ff:256], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:64, d_ff:256], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[d_model:64, d_ff:256], f32>) -> !tessel.tensor<[batch:4, seq:16, d_ff:256], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_ff:256], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:4, seq:16, d_ff:256], f32>, !tessel.tensor<[d_ff:256], f32> -> !tessel.tensor<[batch:4, seq:16, d_ff:256], f32>
    return %3 : !tessel.tensor<[batch:4, seq:16, d_ff:256], f32>
  }
  func.func private @Linear_3(%arg0: !tessel.tensor<[batch:4, seq:16, d_ff:256], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_ff:256, d_model:64], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:4, seq:16, d_ff:256], f32>, !tessel.tensor<[d_ff:256, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_model:64], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[d_model:64], f32> -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    return %3 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  }
  func.func private @Embedding_attend(%arg0: !tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, vocab:256], f32> {
    %0 = tessel.parameter "table" normal scale 2.000000e-02 seed 1251777503 : !tessel.tensor<[vocab:256, d_model:64], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[vocab:256, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, vocab:256], f32>
    return %1 : !tessel.tensor<[batch:4, seq:16, vocab:256], f32>
  }
  func.func @evaluate(%arg0: !tessel.tensor<[batch:4, seq:16], i32> {tessel.name = "tokens"}, %arg1: !tessel.tensor<[batch:4, seq:16], i32> {tessel.name = "targets"}, %arg2: !tessel.tensor<[], i64> {tessel.name = "dropout_step"}) -> (!tessel.tensor<[], f32> {tessel.name = "loss"}, !tessel.tensor<[], f32> {tessel.name = "correct"}) {
    %0 = call @Embedding(%arg0) {tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:4, seq:16], i32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %1 = call @RegularizedBlock_1(%0, %arg2) {tessel.scope = "block0"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[], i64>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %2 = call @RegularizedBlock_1(%1, %arg2) {tessel.scope = "block1"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[], i64>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %3 = call @LayerNorm(%2) {tessel.scope = "ln_f"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %4 = call @Embedding_attend(%3) {tessel.name = "logits", tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, vocab:256], f32>
    %5 = tessel.softmax_cross_entropy %4, %arg1 over "vocab" : !tessel.tensor<[batch:4, seq:16, vocab:256], f32>, !tessel.tensor<[batch:4, seq:16], i32> -> !tessel.tensor<[batch:4, seq:16], f32>
    %6 = tessel.reduce mean %5 : !tessel.tensor<[batch:4, seq:16], f32> -> !tessel.tensor<[], f32>
    %7 = tessel.reduce max %4 : !tessel.tensor<[batch:4, seq:16, vocab:256], f32> -> !tessel.tensor<[batch:4, seq:16], f32>
    %8 = tessel.compare ge, %4, %7 : !tessel.tensor<[batch:4, seq:16, vocab:256], f32>, !tessel.tensor<[batch:4, seq:16], f32> -> !tessel.tensor<[batch:4, seq:16, vocab:256], i1>
    %9 = tessel.one_hot %arg1 as "vocab" : !tessel.tensor<[batch:4, seq:16], i32> -> !tessel.tensor<[batch:4, seq:16, vocab:256], f32>
    %10 = tessel.constant 0.000000e+00 : f32 -> !tessel.tensor<[], f32>
    %11 = tessel.select %8, %9, %10 : !tessel.tensor<[batch:4, seq:16, vocab:256], i1>, !tessel.tensor<[batch:4, seq:16, vocab:256], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:4, seq:16, vocab:256], f32>
    %12 = tessel.reduce sum %11 : !tessel.tensor<[batch:4, seq:16, vocab:256], f32> -> !tessel.tensor<[], f32>
    return %6, %12 : !tessel.tensor<[], f32>, !tessel.tensor<[], f32>
  }
  func.func private @RegularizedBlock_1(%arg0: !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, %arg1: !tessel.tensor<[], i64>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32> {
    %0 = call @LayerNorm(%arg0) {tessel.scope = "ln1"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %1 = call @RotaryAttention(%0) {tessel.scope = "attn"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %2 = tessel.add %arg0, %1 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[batch:4, seq:16, d_model:64], f32> -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %3 = call @LayerNorm(%2) {tessel.scope = "ln2"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %4 = call @MLP(%3) {tessel.scope = "mlp"} : (!tessel.tensor<[batch:4, seq:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    %5 = tessel.add %2, %4 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>, !tessel.tensor<[batch:4, seq:16, d_model:64], f32> -> !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
    return %5 : !tessel.tensor<[batch:4, seq:16, d_model:64], f32>
  }
  func.func @decode(%arg0: !tessel.tensor<[batch:4], i32> {tessel.name = "token"}, %arg1: !tessel.tensor<[], i32> {tessel.name = "position"}, %arg2: !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32> {tessel.name = "block0.attn.k_cache"}, %arg3: !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32> {tessel.name = "block0.attn.v_cache"}, %arg4: !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32> {tessel.name = "block1.attn.k_cache"}, %arg5: !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32> {tessel.name = "block1.attn.v_cache"}) -> (!tessel.tensor<[batch:4, vocab:256], f32> {tessel.name = "logits"}, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32> {tessel.name = "block0.attn.k_cache"}, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32> {tessel.name = "block0.attn.v_cache"}, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32> {tessel.name = "block1.attn.k_cache"}, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32> {tessel.name = "block1.attn.v_cache"}) {
    %0 = call @Embedding_1(%arg0) {tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:4], i32>) -> !tessel.tensor<[batch:4, d_model:64], f32>
    %1:3 = call @RegularizedBlockStep(%0, %arg1, %arg2, %arg3) {tessel.scope = "block0"} : (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[], i32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) -> (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>)
    %2:3 = call @RegularizedBlockStep(%1#0, %arg1, %arg4, %arg5) {tessel.scope = "block1"} : (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[], i32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) -> (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>)
    %3 = call @LayerNorm_1(%2#0) {tessel.scope = "ln_f"} : (!tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32>
    %4 = call @Embedding_attend_1(%3) {tessel.name = "logits", tessel.scope = "tok_emb"} : (!tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, vocab:256], f32>
    return %4, %1#1, %1#2, %2#1, %2#2 : !tessel.tensor<[batch:4, vocab:256], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>
  }
  func.func private @Embedding_1(%arg0: !tessel.tensor<[batch:4], i32>) -> !tessel.tensor<[batch:4, d_model:64], f32> {
    %0 = tessel.parameter "table" normal scale 2.000000e-02 seed 1251777503 : !tessel.tensor<[vocab:256, d_model:64], f32>
    %1 = tessel.gather %0[%arg0] over "vocab" : !tessel.tensor<[vocab:256, d_model:64], f32>, !tessel.tensor<[batch:4], i32> -> !tessel.tensor<[batch:4, d_model:64], f32>
    return %1 : !tessel.tensor<[batch:4, d_model:64], f32>
  }
  func.func private @RegularizedBlockStep(%arg0: !tessel.tensor<[batch:4, d_model:64], f32>, %arg1: !tessel.tensor<[], i32>, %arg2: !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, %arg3: !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) -> (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) {
    %0 = call @LayerNorm_1(%arg0) {tessel.scope = "ln1"} : (!tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32>
    %1:3 = call @RotaryAttentionStep(%0, %arg1, %arg2, %arg3) {tessel.scope = "attn"} : (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[], i32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) -> (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>)
    %2 = tessel.add %arg0, %1#0 : !tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[batch:4, d_model:64], f32> -> !tessel.tensor<[batch:4, d_model:64], f32>
    %3 = call @LayerNorm_1(%2) {tessel.scope = "ln2"} : (!tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32>
    %4 = call @MLP_1(%3) {tessel.scope = "mlp"} : (!tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32>
    %5 = tessel.add %2, %4 : !tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[batch:4, d_model:64], f32> -> !tessel.tensor<[batch:4, d_model:64], f32>
    return %5, %1#1, %1#2 : !tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>
  }
  func.func private @LayerNorm_1(%arg0: !tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32> {
    %0 = tessel.parameter "gamma" ones scale 1.000000e+00 seed 1344869386 : !tessel.tensor<[d_model:64], f32>
    %1 = tessel.parameter "beta" zeros scale 1.000000e+00 seed 797041863 : !tessel.tensor<[d_model:64], f32>
    %2 = tessel.layer_norm %arg0 over ["d_model"] epsilon 1.000000e-05 : !tessel.tensor<[batch:4, d_model:64], f32>
    %3 = tessel.mul %2, %0 : !tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[d_model:64], f32> -> !tessel.tensor<[batch:4, d_model:64], f32>
    %4 = tessel.add %3, %1 : !tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[d_model:64], f32> -> !tessel.tensor<[batch:4, d_model:64], f32>
    return %4 : !tessel.tensor<[batch:4, d_model:64], f32>
  }
  func.func private @RotaryAttentionStep(%arg0: !tessel.tensor<[batch:4, d_model:64], f32>, %arg1: !tessel.tensor<[], i32>, %arg2: !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, %arg3: !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) -> (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) {
    %0 = tessel.cast %arg1 : !tessel.tensor<[], i32> -> !tessel.tensor<[], f32>
    %1 = tessel.iota "head_dim" : !tessel.tensor<[head_dim:8], i32>
    %2 = tessel.cast %1 : !tessel.tensor<[head_dim:8], i32> -> !tessel.tensor<[head_dim:8], f32>
    %3 = tessel.constant -1.15129256 : f32 -> !tessel.tensor<[], f32>
    %4 = tessel.mul %2, %3 : !tessel.tensor<[head_dim:8], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[head_dim:8], f32>
    %5 = tessel.exp %4 : !tessel.tensor<[head_dim:8], f32>
    %6 = tessel.mul %0, %5 : !tessel.tensor<[], f32>, !tessel.tensor<[head_dim:8], f32> -> !tessel.tensor<[head_dim:8], f32>
    %7 = call @Linear_4(%arg0) {tessel.scope = "q"} : (!tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, heads:4, head_dim:16], f32>
    %8 = tessel.slice %7 {dims = ["head_dim"], starts = array<i64: 0>} : !tessel.tensor<[batch:4, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %9 = tessel.slice %7 {dims = ["head_dim"], starts = array<i64: 8>} : !tessel.tensor<[batch:4, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %10 = tessel.cos %6 : !tessel.tensor<[head_dim:8], f32>
    %11 = tessel.sin %6 : !tessel.tensor<[head_dim:8], f32>
    %12 = tessel.mul %8, %10 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %13 = tessel.mul %9, %11 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %14 = tessel.sub %12, %13 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %15 = tessel.mul %8, %11 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %16 = tessel.mul %9, %10 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %17 = tessel.add %15, %16 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %18 = tessel.concat %14, %17 over "head_dim" : (!tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:4, heads:4, head_dim:16], f32>
    %19 = call @Linear_4(%arg0) {tessel.scope = "k"} : (!tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, heads:4, head_dim:16], f32>
    %20 = tessel.slice %19 {dims = ["head_dim"], starts = array<i64: 0>} : !tessel.tensor<[batch:4, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %21 = tessel.slice %19 {dims = ["head_dim"], starts = array<i64: 8>} : !tessel.tensor<[batch:4, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %22 = tessel.cos %6 : !tessel.tensor<[head_dim:8], f32>
    %23 = tessel.sin %6 : !tessel.tensor<[head_dim:8], f32>
    %24 = tessel.mul %20, %22 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %25 = tessel.mul %21, %23 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %26 = tessel.sub %24, %25 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %27 = tessel.mul %20, %23 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %28 = tessel.mul %21, %22 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %29 = tessel.add %27, %28 : !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, heads:4, head_dim:8], f32> -> !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>
    %30 = tessel.concat %26, %29 over "head_dim" : (!tessel.tensor<[batch:4, heads:4, head_dim:8], f32>, !tessel.tensor<[batch:4, heads:4, head_dim:8], f32>) -> !tessel.tensor<[batch:4, heads:4, head_dim:16], f32>
    %31 = call @Linear_4(%arg0) {tessel.scope = "v"} : (!tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, heads:4, head_dim:16], f32>
    %32 = tessel.iota "key" : !tessel.tensor<[key:16], i32>
    %33 = tessel.compare ne, %32, %arg1 : !tessel.tensor<[key:16], i32>, !tessel.tensor<[], i32> -> !tessel.tensor<[key:16], i1>
    %34 = tessel.select %33, %arg2, %30 : !tessel.tensor<[key:16], i1>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>
    %35 = tessel.select %33, %arg3, %31 : !tessel.tensor<[key:16], i1>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, heads:4, head_dim:16], f32> -> !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>
    %36 = tessel.einsum %18, %34 : (!tessel.tensor<[batch:4, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) -> !tessel.tensor<[batch:4, heads:4, key:16], f32>
    %37 = tessel.constant 2.500000e-01 : f32 -> !tessel.tensor<[], f32>
    %38 = tessel.mul %36, %37 : !tessel.tensor<[batch:4, heads:4, key:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:4, heads:4, key:16], f32>
    %39 = tessel.compare le, %32, %arg1 : !tessel.tensor<[key:16], i32>, !tessel.tensor<[], i32> -> !tessel.tensor<[key:16], i1>
    %40 = tessel.constant -1.000000e+09 : f32 -> !tessel.tensor<[], f32>
    %41 = tessel.select %39, %38, %40 : !tessel.tensor<[key:16], i1>, !tessel.tensor<[batch:4, heads:4, key:16], f32>, !tessel.tensor<[], f32> -> !tessel.tensor<[batch:4, heads:4, key:16], f32>
    %42 = tessel.softmax %41 over "key" : !tessel.tensor<[batch:4, heads:4, key:16], f32>
    %43 = tessel.einsum %42, %35 : (!tessel.tensor<[batch:4, heads:4, key:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>) -> !tessel.tensor<[batch:4, heads:4, head_dim:16], f32>
    %44 = call @Linear_5(%43) {tessel.scope = "o"} : (!tessel.tensor<[batch:4, heads:4, head_dim:16], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32>
    return %44, %34, %35 : !tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>, !tessel.tensor<[batch:4, key:16, heads:4, head_dim:16], f32>
  }
  func.func private @Linear_4(%arg0: !tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, heads:4, head_dim:16], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:64, heads:4, head_dim:16], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[d_model:64, heads:4, head_dim:16], f32>) -> !tessel.tensor<[batch:4, heads:4, head_dim:16], f32>
    return %1 : !tessel.tensor<[batch:4, heads:4, head_dim:16], f32>
  }
  func.func private @Linear_5(%arg0: !tessel.tensor<[batch:4, heads:4, head_dim:16], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[heads:4, head_dim:16, d_model:64], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:4, heads:4, head_dim:16], f32>, !tessel.tensor<[heads:4, head_dim:16, d_model:64], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32>
    return %1 : !tessel.tensor<[batch:4, d_model:64], f32>
  }
  func.func private @MLP_1(%arg0: !tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32> {
    %0 = call @Linear_6(%arg0) {tessel.scope = "up"} : (!tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, d_ff:256], f32>
    %1 = tessel.gelu %0 : !tessel.tensor<[batch:4, d_ff:256], f32>
    %2 = call @Linear_7(%1) {tessel.scope = "down"} : (!tessel.tensor<[batch:4, d_ff:256], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32>
    return %2 : !tessel.tensor<[batch:4, d_model:64], f32>
  }
  func.func private @Linear_6(%arg0: !tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, d_ff:256], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_model:64, d_ff:256], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[d_model:64, d_ff:256], f32>) -> !tessel.tensor<[batch:4, d_ff:256], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_ff:256], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:4, d_ff:256], f32>, !tessel.tensor<[d_ff:256], f32> -> !tessel.tensor<[batch:4, d_ff:256], f32>
    return %3 : !tessel.tensor<[batch:4, d_ff:256], f32>
  }
  func.func private @Linear_7(%arg0: !tessel.tensor<[batch:4, d_ff:256], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32> {
    %0 = tessel.parameter "w" normal scale 2.000000e-02 seed 1913405238 : !tessel.tensor<[d_ff:256, d_model:64], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:4, d_ff:256], f32>, !tessel.tensor<[d_ff:256, d_model:64], f32>) -> !tessel.tensor<[batch:4, d_model:64], f32>
    %2 = tessel.parameter "b" zeros scale 1.000000e+00 seed 1728851429 : !tessel.tensor<[d_model:64], f32>
    %3 = tessel.add %1, %2 : !tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[d_model:64], f32> -> !tessel.tensor<[batch:4, d_model:64], f32>
    return %3 : !tessel.tensor<[batch:4, d_model:64], f32>
  }
  func.func private @Embedding_attend_1(%arg0: !tessel.tensor<[batch:4, d_model:64], f32>) -> !tessel.tensor<[batch:4, vocab:256], f32> {
    %0 = tessel.parameter "table" normal scale 2.000000e-02 seed 1251777503 : !tessel.tensor<[vocab:256, d_model:64], f32>
    %1 = tessel.einsum %arg0, %0 : (!tessel.tensor<[batch:4, d_model:64], f32>, !tessel.tensor<[vocab:256, d_model:64], f32>) -> !tessel.tensor<[batch:4, vocab:256], f32>
    return %1 : !tessel.tensor<[batch:4, vocab:256], f32>
  }
}
